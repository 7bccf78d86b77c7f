from typing import final
from typing import Iterable, Union

from . import Solutions

__all__ = ["Problem"]

_Entry = Union[str, tuple[str, Union[str, None]]]
"""An option's entry: "item", "item:color" or (item, color)."""

@final
class Problem:
    """An exact cover problem with primary items, secondary items and colors."""
    def __new__(
        cls,
        items: list[str],
        options: Iterable[str | Iterable[_Entry]],
        *,
        secondary: list[str] | None = None,
    ) -> Problem: ...
    @staticmethod
    def parse(text: str) -> Problem: ...
    def count(self, *, limit: int | None = None, threads: int | None = None) -> int: ...
    def first(self) -> list[int] | None: ...
    def solutions(self) -> Solutions[list[int]]: ...
    def option(self, index: int) -> str: ...
    @property
    def items(self) -> list[str]: ...
    @property
    def secondary(self) -> list[str]: ...
    def __len__(self) -> int: ...
