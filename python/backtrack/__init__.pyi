from typing import final
from typing import Generic, TypeVar

from . import choose as choose, queens as queens, sudoku as sudoku, xcover as xcover

__all__ = ["ParseError", "InternalError", "Solutions", "sudoku", "queens", "xcover", "choose"]

_T = TypeVar("_T")

class ParseError(ValueError):
    line: int
    column: int
    def __init__(self, message: str, line: int, column: int) -> None: ...

class InternalError(RuntimeError): ...

@final
class Solutions(Generic[_T]):
    """An iterator over solutions found on a worker thread."""
    def __iter__(self) -> Solutions[_T]: ...
    def __next__(self) -> _T: ...
    def close(self) -> None: ...
