"""Permutations, combinations and sequences of 1..n or of given values
(multisets included), streamed in lexicographic order without duplicates."""

from ._backtrack import choose as _native

perm = _native.perm
comb = _native.comb

__all__ = ["perm", "comb"]
