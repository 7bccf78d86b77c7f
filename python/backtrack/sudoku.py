"""Sudoku, 4x4 to 25x25: solve, count, stream, batch-solve; and for 9x9
puzzles generate, rate on the Sudoku Explainer scale, explain, hint.

Variant puzzles (4x4 to 16x16) go through the same solve, count,
solutions and solve_many: ISS constraint strings, killer strings,
SudokuWiki killers, jigsaws, pencil-mark grids, and plain grids of sizes
only variants have (6x6, 8x8, 12x12, ...), told from the text as the
command line tells them, and lists of rows of those sizes; candidates()
gives their true candidates.

Puzzles are strings in any format the command line reads (one line of
symbols with '.' or '0' for a blank; a grid of lines; numbers separated by
spaces), lists of lists of ints (0 for a blank), or objects with
``tolist()`` such as numpy arrays. A string gets a string back, in the
format it came in; a list gets a list of lists.
"""

from ._backtrack import sudoku as _native

solve = _native.solve
count = _native.count
solutions = _native.solutions
solve_many = _native.solve_many
generate = _native.generate
rate = _native.rate
explain = _native.explain
hint = _native.hint
candidates = _native.candidates
Candidates = _native.Candidates
Rating = _native.Rating
Step = _native.Step

__all__ = ["solve", "count", "solutions", "solve_many", "generate", "rate", "explain", "hint", "candidates", "Rating", "Step", "Candidates"]
