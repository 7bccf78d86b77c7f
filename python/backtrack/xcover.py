"""Exact cover with colors (Knuth's Algorithm C): build a problem from
Python lists or read it from Knuth's DLX format, then count its solutions,
take the first, or stream them all."""

from ._backtrack import xcover as _native

Problem = _native.Problem

__all__ = ["Problem"]
