"""Simulations on a real Dask cluster (issue 15): a LocalCluster of two worker processes on
127.0.0.1, started and stopped by the test."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

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


def test_the_cluster_gives_the_result_of_one_process(scheduler: str) -> None:
    client, executor = dask_executor(scheduler)
    try:
        on_cluster = simulate("french-jonti", 4, 60, seed=9, executor=executor, workers=4)
    finally:
        client.close()
    assert on_cluster == simulate("french-jonti", 4, 60, seed=9)
    assert on_cluster == simulate("french-jonti", 4, 60, seed=9, workers=2)


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
