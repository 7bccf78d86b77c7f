from typing import Any, Iterable, overload

from . import Solutions

__all__ = ["perm", "comb"]

@overload
def perm(n: int, m: int, repeat: bool = False, values: None = None) -> Solutions[tuple[int, ...]]: ...
@overload
def perm(n: int | None, m: int, repeat: bool = False, *, values: Iterable[Any]) -> Solutions[tuple[Any, ...]]: ...
@overload
def comb(n: int, m: int, repeat: bool = False, values: None = None) -> Solutions[tuple[int, ...]]: ...
@overload
def comb(n: int | None, m: int, repeat: bool = False, *, values: Iterable[Any]) -> Solutions[tuple[Any, ...]]: ...
