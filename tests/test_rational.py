"""A basis made exact (perudo.solve.rational): iterative refinement and rational
reconstruction, against Gaussian elimination in fractions."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

np = pytest.importorskip("numpy", reason="the solve extra is not installed")
pytest.importorskip("highspy", reason="the solve extra is not installed")
pytest.importorskip("scipy", reason="the solve extra is not installed")

from perudo.solve import rational  # noqa: E402


def _eliminated(rows: list[list[int]], rhs: list[int]) -> list[Fraction] | None:
    """``rows @ z = rhs`` by Gauss-Jordan elimination in fractions; None when singular."""
    n = len(rows)
    m = [[Fraction(v) for v in row] + [Fraction(b)] for row, b in zip(rows, rhs, strict=True)]
    for col in range(n):
        pivot = next((r for r in range(col, n) if m[r][col] != 0), None)
        if pivot is None:
            return None
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col] != 0:
                factor = m[r][col] / m[col][col]
                m[r] = [a - factor * b for a, b in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def _integers(rows: list[list[int]]) -> rational.Integers:
    n = len(rows)
    r, c = np.nonzero(np.array(rows, dtype=np.int64))
    values = np.array([rows[i][j] for i, j in zip(r, c, strict=True)], dtype=object)
    return rational.Integers.of(r, c, values, (n, n))


@st.composite
def systems(draw: st.DrawFn) -> tuple[list[list[int]], list[int], list[int]]:
    n = draw(st.integers(1, 7))
    entry = st.integers(-9, 9)
    rows = draw(st.lists(st.lists(entry, min_size=n, max_size=n), min_size=n, max_size=n))
    return (
        rows,
        draw(st.lists(entry, min_size=n, max_size=n)),
        draw(st.lists(entry, min_size=n, max_size=n)),
    )


@settings(max_examples=150, deadline=None)
@given(systems())
def test_a_basis_is_solved_exactly_both_ways(
    system: tuple[list[list[int]], list[int], list[int]],
) -> None:
    rows, primal, dual = system
    expected = _eliminated(rows, primal)
    found = rational.solve(_integers(rows), primal, dual)
    if expected is None:  # singular: refused, never a wrong answer
        assert found is None
        return
    assert found is not None
    assert list(found[0]) == expected
    transposed = [list(column) for column in zip(*rows, strict=True)]
    assert list(found[1]) == _eliminated(transposed, dual)


def test_large_denominators_are_reconstructed() -> None:
    # a Hilbert-like matrix scaled to integers: denominators of many digits
    n = 6
    rows = [[2520 * 27 // (i + j + 1) for j in range(n)] for i in range(n)]
    rhs = [1] + [0] * (n - 1)
    found = rational.solve(_integers(rows), rhs, rhs)
    assert found is not None
    assert list(found[0]) == _eliminated(rows, rhs)


def test_a_sum_of_duplicates_is_one_entry() -> None:
    matrix = rational.Integers.of(
        np.array([0, 0, 1]), np.array([1, 1, 0]), np.array([2, 3, 7], dtype=object), (2, 2)
    )
    assert list(matrix.times(np.array([1, 10], dtype=object))) == [50, 7]
    assert list(matrix.transposed().times(np.array([1, 10], dtype=object))) == [70, 5]


@pytest.mark.parametrize(("n", "made_exact"), [(3, True), (6, False)])
def test_a_solution_whose_common_denominator_is_too_large_is_not_made_exact(
    n: int, made_exact: bool
) -> None:
    # each entry's denominator is a 400-bit odd number, within the precisions; their
    # common multiple has about 400 * n bits: past COMMON_BITS (2048) at six entries (in
    # a pass of French Calza's 3v1 game, such a check filled 23 GiB)
    denominators = [2**399 + 2 * k + 1 for k in range(n)]
    diagonal = np.arange(n)
    matrix = rational.Integers.of(diagonal, diagonal, np.array(denominators, dtype=object), (n, n))
    found = rational.solve(matrix, [1] * n, [1] * n)
    if made_exact:
        assert found is not None
        assert list(found[0]) == [Fraction(1, d) for d in denominators]
    else:
        assert found is None
