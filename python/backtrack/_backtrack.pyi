from types import ModuleType
from typing import NoReturn

from . import Solutions as Solutions

__all__ = ["sudoku", "queens", "xcover", "choose", "Solutions", "_panic"]

sudoku: ModuleType
queens: ModuleType
xcover: ModuleType
choose: ModuleType

def _panic(place: str) -> NoReturn: ...
