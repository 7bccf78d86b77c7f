from typing import final
from typing import Any, Iterable, Protocol, Sequence, overload

from . import Solutions

__all__ = ["solve", "count", "solutions", "solve_many", "generate", "rate", "explain", "hint", "Rating", "Step"]

class _HasToList(Protocol):
    def tolist(self) -> Any: ...

_Grid = list[list[int]]
"""A grid as rows of ints, 0 for a blank."""
_GridLike = Sequence[Sequence[int]] | _HasToList
"""A grid as rows of ints, or an object with tolist() such as a numpy array."""
_Puzzle = str | _GridLike
"""A puzzle: a string in any format the command line reads, or a grid."""

@overload
def solve(puzzle: str, *, lexmin: bool = False) -> str | None: ...
@overload
def solve(puzzle: _GridLike, *, lexmin: bool = False) -> _Grid | None: ...
def count(puzzle: _Puzzle, *, limit: int | None = None) -> int: ...
@overload
def solutions(puzzle: str) -> Solutions[str]: ...
@overload
def solutions(puzzle: _GridLike) -> Solutions[_Grid]: ...
@overload
def solve_many(puzzles: str, *, threads: int | None = None, lexmin: bool = False) -> list[str | None]: ...
@overload
def solve_many(
    puzzles: Iterable[_Puzzle], *, threads: int | None = None, lexmin: bool = False
) -> list[Any]: ...
def generate(
    count: int = 1,
    *,
    seed: int | None = None,
    symmetry: str = "none",
    minimal: bool = False,
    size: int = 9,
    rating: str | float | tuple[float | None, float | None] | None = None,
    technique: str | None = None,
    clues: int | None = None,
    attempts: int = 20000,
    threads: int | None = None,
) -> list[str]: ...
def rate(puzzle: _Puzzle) -> Rating: ...
def explain(puzzle: _Puzzle) -> list[Step]: ...
def hint(puzzle: _Puzzle) -> Step | None: ...

@final
class Rating:
    """Ratings on the Sudoku Explainer scale."""
    @property
    def er(self) -> float | None: ...
    @property
    def ep(self) -> float | None: ...
    @property
    def ed(self) -> float | None: ...
    @property
    def hardest(self) -> str | None: ...
    @property
    def beyond(self) -> bool: ...
    @property
    def reached(self) -> float: ...
    @property
    def text(self) -> str: ...

@final
class Step:
    """One step of a solving path."""
    @property
    def technique(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def placements(self) -> list[tuple[int, int, int]]: ...
    @property
    def eliminations(self) -> list[tuple[int, int, int]]: ...
    @property
    def text(self) -> str: ...
