"""Simulations on a real Dask cluster (issue 15): a LocalCluster of two worker processes on
127.0.0.1, started and stopped by the test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from perudo.cluster import dask_executor
from perudo.simulate import simulate

distributed = pytest.importorskip(
    "distributed", reason="Dask is not installed: pip install '.[dask]'"
)


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, silence_logs=40,
    )  # fmt: skip
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


@pytest.mark.slow
def test_the_cluster_gives_the_result_of_one_process(scheduler: str) -> None:
    client, executor = dask_executor(scheduler)
    try:
        on_cluster = simulate("french-jonti", 4, 60, seed=9, executor=executor, workers=4)
    finally:
        client.close()
    assert on_cluster == simulate("french-jonti", 4, 60, seed=9)
    assert on_cluster == simulate("french-jonti", 4, 60, seed=9, workers=2)


@pytest.mark.slow
def test_the_command_runs_on_the_cluster(scheduler: str) -> None:
    argv = ["simulate", "--games", "30", "--players", "3", "--json"]
    local = subprocess.run([sys.executable, "-m", "perudo", *argv], capture_output=True,
                           text=True, timeout=120)  # fmt: skip
    remote = subprocess.run(
        [sys.executable, "-m", "perudo", *argv, "--scheduler", scheduler],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "perudo", "simulate", "--scheduler", "tcp://127.0.0.1:9"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "perudo: no Dask scheduler answers at 'tcp://127.0.0.1:9': OSError"
    ]


def test_a_study_runs_on_the_cluster(scheduler: str) -> None:
    from perudo.study import run_study

    client, executor = dask_executor(scheduler)
    try:
        remote = run_study(["italian", "wango"], (2, 3), 16, seed=3, executor=executor, workers=4)
    finally:
        client.close()
    assert remote == run_study(["italian", "wango"], (2, 3), 16, seed=3)


@pytest.mark.slow
def test_a_tls_cluster_takes_only_clients_with_its_certificate(tmp_path: Path) -> None:
    """The cluster how-to's TLS recipe, played: without the certificate no client gets in."""
    openssl = shutil.which("openssl")
    if openssl is None:  # .ci/run installs Debian's openssl; a developer may not have it
        pytest.skip("no openssl to make the certificates")

    def run(*args: str) -> None:
        subprocess.run([openssl, *args], cwd=tmp_path, check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=ca",
        "-keyout", "ca-key.pem", "-out", "ca.pem")  # fmt: skip
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=cluster", "-keyout", "key.pem",
        "-out", "request.pem")  # fmt: skip
    run("x509", "-req", "-in", "request.pem", "-CA", "ca.pem", "-CAkey", "ca-key.pem",
        "-CAcreateserial", "-days", "2", "-out", "cert.pem")  # fmt: skip
    files = {name: str(tmp_path / f"{name}.pem") for name in ("ca", "cert", "key")}
    security = distributed.Security(
        tls_ca_file=files["ca"], tls_scheduler_cert=files["cert"],
        tls_scheduler_key=files["key"], tls_worker_cert=files["cert"],
        tls_worker_key=files["key"], tls_client_cert=files["cert"],
        tls_client_key=files["key"], require_encryption=True,
    )  # fmt: skip
    cluster = distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
        protocol="tls://", security=security, dashboard_address=None, silence_logs=40,
    )  # fmt: skip
    try:
        address = cluster.scheduler_address
        assert address.startswith("tls://")
        argv = [sys.executable, "-m", "perudo", "simulate", "--games", "8", "--players", "3",
                "--json", "--scheduler", address]  # fmt: skip
        plain = {k: v for k, v in os.environ.items() if not k.startswith("DASK_")}
        stranger = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=plain)
        assert stranger.returncode == 2
        assert "takes TLS clients only" in stranger.stderr
        assert len(stranger.stderr.strip().splitlines()) == 1
        recipe = {
            **plain,
            "DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
            "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": files["ca"],
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT": files["cert"],
            "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY": files["key"],
        }
        member = subprocess.run(argv, capture_output=True, text=True, timeout=120, env=recipe)
        assert member.returncode == 0, member.stderr
        assert json.loads(member.stdout)["games"] == 8
    finally:
        cluster.close()
