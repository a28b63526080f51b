"""A basic solution of a linear program made exact: the square system of its basis solved
in fractions, by iterative refinement (a float LU of the basis; each residual computed
exactly in integers) and rational reconstruction (the nearest fraction with a bounded
denominator, checked exactly). The way exact LP solvers (QSopt_ex, SoPlex) finish, for the
floats HiGHS gives."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import numpy as np
from scipy import sparse
from scipy.sparse.linalg import splu

#: The precisions tried in turn, in bits: a solution whose denominators need more than
#: half of the last is not made exact (its floats are kept).
PRECISIONS = (128, 512, 2048)

#: The most bits the common denominator of a solution checked exactly may have: past it,
#: the solution is not made exact (its floats are kept), so its check and the proofs
#: with its fractions stay small. Each entry's denominator is under the precision's
#: square root, but their common multiple need not be: in a pass of French Calza's 3v1
#: game at four faces, the check of one basis's solution, then the proof with its
#: fractions, filled the machine's 23 GiB until the system killed the solve.
COMMON_BITS = PRECISIONS[-1]

#: The refinement steps allowed per precision: each gains some 40 bits on a well-kept
#: basis; one that gains nothing is singular in floats.
STEPS = 200


@attrs.frozen(eq=False)
class Integers:
    """A sparse matrix of Python integers, row by row (CSR)."""

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray  # object: Python ints
    shape: tuple[int, int]

    @classmethod
    def of(
        cls, rows: np.ndarray, cols: np.ndarray, values: np.ndarray, shape: tuple[int, int]
    ) -> Integers:
        """The matrix whose entries at (``rows``, ``cols``) sum ``values`` (Python ints)."""
        key = rows.astype(np.int64) * shape[1] + cols
        order = np.argsort(key, kind="stable")
        key, values = key[order], values[order]
        unique, first = np.unique(key, return_index=True)
        summed = np.add.reduceat(values, first) if len(first) else values[:0]
        rows, cols = unique // shape[1], unique % shape[1]
        indptr = np.zeros(shape[0] + 1, dtype=np.int64)
        np.add.at(indptr, rows + 1, 1)
        return cls(
            indptr=np.cumsum(indptr), indices=cols.astype(np.int64),
            data=np.asarray(summed, dtype=object), shape=shape,
        )  # fmt: skip

    def transposed(self) -> Integers:
        """The transpose."""
        rows = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        return Integers.of(self.indices, rows, self.data, (self.shape[1], self.shape[0]))

    def times(self, vector: np.ndarray) -> np.ndarray:
        """The product with a vector of Python integers, exactly."""
        out = np.zeros(self.shape[0], dtype=object)
        nonempty = np.flatnonzero(np.diff(self.indptr))
        if len(nonempty):
            products = self.data * vector[self.indices]
            out[nonempty] = np.add.reduceat(products, self.indptr[nonempty])
        return out

    def floats(self) -> Any:
        """The matrix in floats, as SciPy's sparse CSC."""
        values = np.array([float(v) for v in self.data], dtype=np.float64)
        return sparse.csr_matrix((values, self.indices, self.indptr), shape=self.shape).tocsc()


def solve(
    matrix: Integers, primal: Sequence[int], dual: Sequence[int]
) -> tuple[np.ndarray, np.ndarray] | None:
    """The exact solutions (object arrays of fractions) of ``matrix @ z = primal`` and
    ``matrix.T @ w = dual``, for a square ``matrix`` (a basis) nonsingular in floats, from
    one LU; None when its floats are singular or a solution needs denominators past
    :data:`PRECISIONS` (or a common one past :data:`COMMON_BITS`)."""
    if matrix.shape[0] != matrix.shape[1]:
        return None
    try:
        lu = splu(matrix.floats())
    except RuntimeError:  # singular in floats
        return None
    transposed = matrix.transposed()
    found = []
    for system, rhs, trans in ((matrix, primal, "N"), (transposed, dual, "T")):
        exact = _refined(system, np.array([int(v) for v in rhs], dtype=object), lu, trans)
        if exact is None:
            return None
        found.append(exact)
    return found[0], found[1]


def _refined(matrix: Integers, rhs: np.ndarray, lu: Any, trans: str) -> np.ndarray | None:
    """``matrix @ z = rhs`` solved exactly: ``z = Z / 2**s`` refined (Z integers) until its
    residual is below each precision in turn, then each entry's nearest fraction with a
    denominator below the square root of the precision, kept if it solves exactly."""
    n = matrix.shape[1]
    whole = np.zeros(n, dtype=object)
    shift = 0
    for bits in PRECISIONS:
        for _ in range(STEPS):
            residual = rhs * (1 << shift) - matrix.times(whole)
            size = max((abs(int(r)).bit_length() for r in residual), default=0)
            if size == 0:  # exact in binary fractions
                return np.array([Fraction(int(z), 1 << shift) for z in whole], dtype=object)
            if shift - size > bits:
                break
            scaled = np.array([_top(int(r), size) for r in residual], dtype=np.float64)
            step = lu.solve(scaled, trans=trans)
            largest = float(np.abs(step).max())
            if not math.isfinite(largest) or largest == 0.0:
                return None
            k = 50 - math.ceil(math.log2(largest))
            correction = np.array([int(v) for v in np.round(step * 2.0**k)], dtype=object)
            if size >= k:
                whole = whole + correction * (1 << (size - k))
            else:
                whole = whole * (1 << (k - size)) + correction
                shift += k - size
        else:
            return None  # no convergence: singular in floats
        limit = 1 << (bits // 2 - 2)
        guess = [Fraction(int(z), 1 << shift).limit_denominator(limit) for z in whole]
        if _solves(matrix, guess, rhs):
            return np.array(guess, dtype=object)
    return None


def _top(value: int, size: int) -> float:
    """``value / 2**size`` as a float (``value`` of at most ``size`` bits)."""
    shift = size - 62
    return float(value >> shift if shift >= 0 else value << -shift) / 2.0**62


def _solves(matrix: Integers, z: list[Fraction], rhs: np.ndarray) -> bool:
    """Whether ``matrix @ z == rhs`` exactly (in integers, over a common denominator); False
    when that denominator has more than :data:`COMMON_BITS` bits."""
    common = 1
    for denominator in {f.denominator for f in z}:
        common = math.lcm(common, denominator)
        if common.bit_length() > COMMON_BITS:
            return False
    scaled = np.array([f.numerator * (common // f.denominator) for f in z], dtype=object)
    return bool(np.all(matrix.times(scaled) == rhs * common))
