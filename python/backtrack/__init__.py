"""Fast, exact backtracking solvers, from the Rust library ``backtrack``.

Submodules:

* :mod:`backtrack.sudoku`: solve, count, stream, batch-solve, generate, rate, explain, hint;
  variant puzzles (killer cages, thermometers, ...) and their true candidates;
* :mod:`backtrack.queens`: count and list N-queens solutions;
* :mod:`backtrack.xcover`: exact cover with colors (Knuth's Algorithm C);
* :mod:`backtrack.choose`: permutations and combinations, of sets and multisets.

Long calls release the interpreter's lock (other Python threads run) and
answer Ctrl-C with ``KeyboardInterrupt``. Malformed input raises
:class:`ParseError`; a bug inside the library raises :class:`InternalError`.

>>> import backtrack
>>> backtrack.queens.count(8), backtrack.sudoku.count("1...............")
(92, 72)
"""

__all__ = ["ParseError", "InternalError", "Solutions", "sudoku", "queens", "xcover", "choose"]


class ParseError(ValueError):
    """Malformed input: the library's message, and where.

    ``line`` and ``column`` are 1-based; a column of 0 means the error
    concerns the whole line (or the end of the input).

    >>> from backtrack import ParseError, sudoku
    >>> try:
    ...     sudoku.solve("12x4" + "." * 12)
    ... except ParseError as e:
    ...     print(e.line, e.column, e)
    1 3 line 1, column 3: ...
    """

    line: int
    column: int

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.line = line
        self.column = column


class InternalError(RuntimeError):
    """A bug inside the library (a Rust panic), raised instead of a crash."""


from ._backtrack import Solutions  # noqa: E402
from . import choose, queens, sudoku, xcover  # noqa: E402
