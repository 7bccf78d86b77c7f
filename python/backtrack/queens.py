"""N-queens: count the solutions (all, or distinct up to symmetry) on every
core, or list them in lexicographic order."""

from ._backtrack import queens as _native

count = _native.count
solutions = _native.solutions

__all__ = ["count", "solutions"]
