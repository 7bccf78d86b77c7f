"""The Python package: every function, its errors, Ctrl-C, threads, iterators
dropped midway, the docstring and README examples, and the type stubs."""

import doctest
import gc
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import backtrack
from backtrack import ParseError, choose, queens, sudoku, xcover

ROOT = Path(__file__).resolve().parents[2]

# A 17-clue puzzle with one solution, and that solution.
GRID = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
SOLVED = "417369825632158947958724316825437169791586432346912758289643571573291684164875293"
# 4x4 grids: one with 72 solutions, one without any (no clash among the givens).
OPEN4 = "1..............."
NONE4 = "12....34........"


def rows(line, side=9):
    return [[0 if c == "." else int(c, 36) for c in line[r * side:(r + 1) * side]] for r in range(side)]


def workers():
    """The package's worker threads now running (each is named "backtrack")."""
    names = []
    for task in os.listdir("/proc/self/task"):
        try:
            names.append(Path(f"/proc/self/task/{task}/comm").read_text().strip())
        except OSError:
            pass  # the thread ended meanwhile
    return names.count("backtrack")


def settles(seconds=5.0):
    """Whether every worker thread has ended within `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        gc.collect()
        if workers() == 0:
            return True
        time.sleep(0.02)
    return False


# --- sudoku ---------------------------------------------------------------


def test_solve_answers_in_the_format_it_was_given():
    assert sudoku.solve(GRID) == SOLVED
    grid_text = "\n".join(GRID[r * 9:(r + 1) * 9] for r in range(9)) + "\n"
    assert sudoku.solve(grid_text) == "\n".join(SOLVED[r * 9:(r + 1) * 9] for r in range(9))
    spaced = "\n".join(" ".join(str(v) for v in row) for row in rows(GRID)) + "\n"
    assert sudoku.solve(spaced) == "\n".join(" ".join(str(v) for v in row) for row in rows(SOLVED))
    assert sudoku.solve(rows(GRID)) == rows(SOLVED)


def test_solve_takes_any_object_with_tolist():
    class Array:
        def tolist(self):
            return rows(GRID)

    assert sudoku.solve(Array()) == rows(SOLVED)


def test_solve_lexmin_and_no_solution():
    assert sudoku.solve("." * 16, lexmin=True) == "1234341221434321"
    assert sudoku.solve("." * 81, lexmin=True).startswith("123456789456789123789123456")
    assert sudoku.solve(NONE4) is None
    assert sudoku.solve(rows(NONE4, 4)) is None


def test_other_sizes_solve_and_count():
    empty16 = "." * 256
    solution = sudoku.solve(empty16)
    assert len(solution) == 256 and "." not in solution
    assert sudoku.count(empty16, limit=3) == 3
    assert sudoku.count(OPEN4) == 72


def test_count_with_and_without_limit():
    assert sudoku.count(GRID) == 1
    assert sudoku.count(GRID, limit=2) == 1
    assert sudoku.count("." * 81, limit=5) == 5
    assert sudoku.count(NONE4) == 0


def test_solutions_stream_every_solution_once():
    found = list(sudoku.solutions(OPEN4))
    assert len(found) == 72 == len(set(found))
    assert all(sudoku.count(s) == 1 for s in found[:5])
    assert [len(g) for g in next(sudoku.solutions(rows(OPEN4, 4)))] == [4, 4, 4, 4]
    assert list(sudoku.solutions(NONE4)) == []


def test_solve_many_keeps_input_order_on_many_threads():
    puzzles = [sudoku.solve(GRID)[:k] + "." * (81 - k) for k in range(30, 81, 5)] + [GRID, NONE4]
    one_by_one = [sudoku.solve(p) for p in puzzles]
    for threads in (1, 2, 4, None):
        assert sudoku.solve_many(puzzles, threads=threads) == one_by_one
    text = "# a comment\n" + "\n".join([GRID, "", GRID]) + "\n"
    assert sudoku.solve_many(text) == [SOLVED, SOLVED]
    assert sudoku.solve_many([rows(GRID)]) == [rows(SOLVED)]
    assert sudoku.solve_many(["." * 16] * 3, lexmin=True) == ["1234341221434321"] * 3
    assert sudoku.solve_many([]) == []


def test_solve_many_lines_take_the_same_path_as_grids():
    # One 9x9 line is read by a shortcut; it must answer exactly as the
    # general reader does (lists of rows), clashes and stray symbols included.
    solved = sudoku.solve(GRID)
    lines = [solved[:k] + "." * (81 - k) for k in (0, 17, 40, 80)]
    lines += [line.replace(".", "0") for line in lines] + ["12" + "." * 79]
    as_rows = [rows(line.replace("0", ".")) for line in lines]
    assert sudoku.solve_many(lines) == ["".join(map(str, sum(r, []))) for r in sudoku.solve_many(as_rows)]
    for clash, column in (("11" + "." * 79, 2), ("1" + "." * 8 + "1" + "." * 71, 10), ("1" + "." * 9 + "1" + "." * 70, 11)):
        with pytest.raises(backtrack.ParseError) as error:
            sudoku.solve_many([GRID, clash])
        assert error.value.column == column
    # Symbols past U+00FF, among them one whose low byte is a digit ('\u0131').
    for stray in ("\uff11", "\u0131", "\U00010031"):
        for call in (sudoku.solve_many, lambda p: sudoku.solve(p[0])):
            with pytest.raises(backtrack.ParseError) as error:
                call(["." * 80 + stray])
            assert error.value.column == 81
    # Clashes are looked for after the search (clashing givens have no
    # solution), yet the first bad puzzle in input order is the one reported.
    stray = "." * 80 + "x"
    for puzzles, column in (([GRID, "11" + "." * 79, GRID, stray], 2), ([stray, "11" + "." * 79], 81)):
        with pytest.raises(backtrack.ParseError) as error:
            sudoku.solve_many(puzzles)
        assert error.value.column == column


# Variant puzzles: the examples of the README's variant section, and their solutions.
VARIANTS = [line for line in (ROOT / "examples" / "variant.txt").read_text().splitlines()
            if line and not line.startswith("#")]
THERMO, KILLER, SIX = VARIANTS
VARIANT_SOLUTIONS = [
    "847632519295471386631598247129743865486259173753816924368924751974185632512367498",
    "432851769786239415159467823263974581971583642548612397397148256614725938825396174",
    "132654654312215463463125541236326541",
]


def test_variant_puzzles_through_solve_count_and_solutions():
    assert THERMO.startswith(".~R1C2_4") and KILLER.startswith("G<<L<K") and SIX.startswith(".Shape~6x6")
    for puzzle, solution in zip(VARIANTS, VARIANT_SOLUTIONS):
        assert sudoku.solve(puzzle) == solution
        assert sudoku.count(puzzle, limit=2) == 1
        assert list(sudoku.solutions(puzzle)) == [solution]
    # A plain grid of a size only variants have (6x6, boxes of 2 rows by 3 columns).
    six = VARIANT_SOLUTIONS[2]
    assert sudoku.solve("." + six[1:]) == six
    open_six = six[:6] + "." * 30
    assert sudoku.count(open_six, limit=2) == 2
    assert sudoku.count(open_six) == len(set(sudoku.solutions(open_six))) > 2
    assert sudoku.solve(".Shape~4x4.Cage~2~R1C1~R1C2") is None
    # As rows of ints (or a numpy array), answered as rows.
    assert sudoku.solve(rows("." + six[1:], 6)) == rows(six, 6)
    assert sudoku.count(rows(open_six, 6), limit=2) == 2
    assert next(sudoku.solutions(rows(open_six, 6))) in [rows(s, 6) for s in sudoku.solutions(open_six)]
    assert sudoku.solve_many([rows(six, 6), six]) == [rows(six, 6), six]
    assert sudoku.candidates(rows(open_six, 6)).candidates == sudoku.candidates(open_six).candidates
    with pytest.raises(ValueError, match="lexmin is for classic grids"):
        sudoku.solve(THERMO, lexmin=True)


def test_solve_many_takes_variant_puzzles_as_a_file_and_as_a_list():
    text = (ROOT / "examples" / "variant.txt").read_text()
    assert sudoku.solve_many(text, threads=2) == VARIANT_SOLUTIONS
    mixed = [KILLER, GRID, ".Shape~4x4.Cage~2~R1C1~R1C2", SIX]
    assert sudoku.solve_many(mixed) == [VARIANT_SOLUTIONS[1], SOLVED, None, VARIANT_SOLUTIONS[2]]
    with pytest.raises(ValueError, match="lexmin"):
        sudoku.solve_many(mixed, lexmin=True)


def test_candidates_of_a_puzzle_with_several_solutions():
    puzzle = (ROOT / "examples" / "variant-candidates.txt").read_text().strip()
    found = sudoku.candidates(puzzle)
    assert isinstance(found, sudoku.Candidates)
    # As the README's `backtrack sudoku --candidates` prints them.
    assert (found.solutions, found.complete, found.size) == (2, False, 6)
    assert found.rows()[0] == [[1], [3], [2, 4], [6], [5], [2, 4]]
    assert found.rows()[5] == [[3], [2], [6], [5], [4], [1]]
    assert found.candidates == [cell for row in found.rows() for cell in row]
    counted = sudoku.candidates(puzzle, limit=100)
    assert (counted.solutions, counted.complete) == (2, True)
    # A classic puzzle, as a string or rows: 72 solutions, every digit possible in an open cell.
    assert sudoku.candidates(OPEN4, limit=1000).solutions == 72
    assert sudoku.candidates(rows(OPEN4, 4)).candidates[1] == [2, 3, 4]
    unique = sudoku.candidates(THERMO)
    assert (unique.solutions, unique.complete) == (1, True)
    assert [c[0] for c in unique.candidates] == [int(d) for d in VARIANT_SOLUTIONS[0]]
    none = sudoku.candidates(".Shape~4x4.Cage~2~R1C1~R1C2")
    assert (none.solutions, none.complete, none.candidates[0]) == (0, True, [])
    with pytest.raises(ValueError):
        sudoku.candidates(OPEN4, limit=0)


def test_variant_parse_errors_have_line_and_column():
    with pytest.raises(ParseError) as e:
        sudoku.solve(".Shape~4x4.Foo~1")
    assert (e.value.line, e.value.column) == (1, 12)
    assert str(e.value) == "line 1, column 12: unknown constraint type 'Foo'"
    with pytest.raises(ParseError) as e:
        sudoku.solve_many("# header\n" + THERMO + "\n.Cage~3~R1C1~R1CZ\n")
    assert (e.value.line, e.value.column) == (3, 14)
    with pytest.raises(ParseError):
        sudoku.candidates(".~R1C1_10")


def test_ctrl_c_interrupts_a_variant_count():
    assert settles()
    delay = seconds_to_interrupt(lambda: sudoku.count(".NoBoxes.~R1C1_1"))  # a 9x9 Latin square: ages
    assert delay < 0.5, f"KeyboardInterrupt came {delay:.3f} s after SIGINT"
    assert settles(), "the variant search did not stop after Ctrl-C"


def test_generate_is_reproducible_and_unique():
    puzzles = sudoku.generate(3, seed=11)
    assert len(puzzles) == 3 and all(len(p) == 81 for p in puzzles)
    assert all(sudoku.count(p, limit=2) == 1 for p in puzzles)
    assert sudoku.generate(3, seed=11, threads=1) == puzzles
    sym = sudoku.generate(seed=3, symmetry="rot180", minimal=True)[0]
    assert all((sym[i] == ".") == (sym[80 - i] == ".") for i in range(81))
    assert len(sudoku.generate(seed=1, size=16)[0]) == 256
    rated = sudoku.generate(seed=5, rating=(1.0, 2.0))[0]
    assert 1.0 <= sudoku.rate(rated).er <= 2.0
    assert sudoku.generate(seed=5, rating="1.0..2.0") == [rated]
    assert sudoku.rate(sudoku.generate(seed=2, technique="pointing")[0]).hardest == "Pointing"
    assert sudoku.generate(seed=2, clues=30)[0].count(".") >= 51


def test_generate_rejects_bad_options():
    with pytest.raises(ValueError, match="size"):
        sudoku.generate(size=10)
    with pytest.raises(ValueError, match="unknown technique"):
        sudoku.generate(technique="no-such-thing")
    with pytest.raises(ValueError):
        sudoku.generate(symmetry="sideways")
    with pytest.raises(ValueError, match="9x9"):
        sudoku.generate(size=4, rating=(1, 2))
    with pytest.raises(RuntimeError, match="attempt"):
        sudoku.generate(seed=1, clues=17, attempts=1)


def test_rate_explain_hint():
    r = sudoku.rate(GRID)
    assert (r.er, r.ep, r.ed, r.hardest, r.beyond, r.reached) == (2.6, 1.2, 1.2, "Pointing", False, 2.6)
    assert str(r) == "2.6/1.2/1.2" and repr(r).startswith("Rating(er=2.6")
    steps = sudoku.explain(GRID)
    assert max(s.rating for s in steps) == 2.6
    assert sum(len(s.placements) for s in steps) == GRID.count(".")
    board = list(GRID)
    for step in steps:
        for r_, c, d in step.placements:
            board[(r_ - 1) * 9 + c - 1] = str(d)
    assert "".join(board) == SOLVED
    first = sudoku.hint(GRID)
    assert (first.technique, first.rating, first.placements, first.text) == (
        steps[0].technique, steps[0].rating, steps[0].placements, steps[0].text)
    assert sudoku.hint(SOLVED) is None
    assert any(s.eliminations for s in steps)


def test_rater_refuses_what_it_cannot_rate():
    with pytest.raises(ValueError, match="more than one solution"):
        sudoku.rate("." * 81)
    with pytest.raises(ValueError, match="no solution"):
        sudoku.explain("12......." + "...345678" + "." * 63)
    with pytest.raises(ValueError, match="9x9"):
        sudoku.hint(OPEN4)


# --- errors ---------------------------------------------------------------


def test_parse_error_is_a_value_error_with_line_and_column():
    with pytest.raises(ParseError) as caught:
        sudoku.solve("12x4" + "." * 12)
    e = caught.value
    assert isinstance(e, ValueError)
    assert (e.line, e.column) == (1, 3)
    assert str(e).startswith("line 1, column 3: ")
    with pytest.raises(ParseError) as caught:
        sudoku.solve_many(GRID + "\n" + GRID[:80] + "x\n")
    assert (caught.value.line, caught.value.column) == (2, 81)
    with pytest.raises(ParseError) as caught:
        xcover.Problem.parse("a b\na b\nb q\n")
    assert (caught.value.line, caught.value.column) == (3, 3)


def test_bad_grids_and_arguments():
    with pytest.raises(ValueError, match="a grid has 4 to 16 rows, or 25, not 3"):
        sudoku.solve([[0] * 3] * 3)
    with pytest.raises(ValueError, match="row 1 has 9 values; a 8x8 grid has 8"):
        sudoku.solve([[0] * 9] * 8)
    with pytest.raises(ValueError, match="row 2 has 8 values"):
        sudoku.solve([[0] * 9, [0] * 8] + [[0] * 9] * 7)
    with pytest.raises(ValueError, match="out of range"):
        sudoku.solve([[10] + [0] * 8] + [[0] * 9] * 8)
    with pytest.raises(TypeError, match="a puzzle is a string"):
        sudoku.solve(42)
    with pytest.raises(ValueError, match="board size"):
        queens.count(0)
    with pytest.raises(ValueError, match="threads"):
        queens.count(8, threads=5000)
    with pytest.raises(ValueError, match="unknown item 'z'"):
        xcover.Problem(["a"], [["a", "z"]])
    with pytest.raises(ValueError, match="too large"):
        choose.perm(10**9, 2)
    with pytest.raises(ValueError, match="3 values were given"):
        choose.comb(2, 1, values=[1, 2, 3])


@pytest.mark.parametrize("place", ["here", "worker", "pool", "stream"])
def test_a_panic_becomes_internal_error(place):
    with pytest.raises(backtrack.InternalError, match="a deliberate panic"):
        result = backtrack._backtrack._panic(place)
        list(result)
    # The interpreter carries on.
    assert queens.count(6) == 4


# --- queens, xcover, choose -----------------------------------------------


def test_queens_counts_and_solutions():
    assert [queens.count(n) for n in range(1, 11)] == [1, 0, 0, 2, 10, 4, 40, 92, 352, 724]
    assert [queens.count(n, unique=True) for n in range(1, 11)] == [1, 0, 0, 1, 2, 1, 6, 12, 46, 92]
    assert queens.count(12, threads=1) == queens.count(12, threads=2) == 14200
    eight = list(queens.solutions(8))
    assert len(eight) == 92 and eight == sorted(eight)
    for cols in eight:
        assert len({c for c in cols}) == 8
        assert len({r + c for r, c in enumerate(cols)}) == 8
        assert len({r - c for r, c in enumerate(cols)}) == 8


def test_xcover_from_python_and_from_text():
    items, options = ["a", "b", "c"], [["a", "b"], ["c"], ["a"], ["b", "c"]]
    p = xcover.Problem(items, options)
    assert (p.count(), len(p), p.items, p.secondary) == (2, 4, items, [])
    assert sorted(sorted(s) for s in p.solutions()) == [[0, 1], [2, 3]]
    assert sorted(p.first()) in ([0, 1], [2, 3])
    assert p.count(limit=1) == 1 and p.count(threads=2) == 2
    assert p.option(3) == "b c"
    with pytest.raises(IndexError):
        p.option(4)
    text = "a b c\na b\nc\na\nb c\n"
    assert xcover.Problem.parse(text).count() == 2
    colored = xcover.Problem(["p", "q", "r"], [["p", ("x", "A")], "q x:A", "q x:B", "r x:B"], secondary=["x"])
    assert colored.count() == 0
    shared = xcover.Problem(["p", "q"], ["p x:A", "q x:A", "q x:B"], secondary=["x"])
    assert list(shared.solutions()) == [[0, 1]] or sorted(next(shared.solutions())) == [0, 1]
    assert xcover.Problem(["a"], [["b"]] * 0 + [["a"]]).first() == [0]
    assert xcover.Problem(["a", "b"], [["a"]]).first() is None


def test_choose_perm_and_comb():
    assert list(choose.perm(3, 3)) == [(1, 2, 3), (1, 3, 2), (2, 1, 3), (2, 3, 1), (3, 1, 2), (3, 2, 1)]
    assert len(list(choose.perm(4, 2, repeat=True))) == 16
    assert len(list(choose.comb(10, 4))) == 210
    assert len(list(choose.comb(4, 3, repeat=True))) == 20
    assert list(choose.perm(None, 2, values=[9, 7, 9, 1])) == [
        (1, 7), (1, 9), (7, 1), (7, 9), (9, 1), (9, 7), (9, 9)]
    assert list(choose.comb(None, 2, values="aba")) == [("a", "a"), ("a", "b")]
    assert list(choose.perm(2, 3)) == []
    assert list(choose.comb(3, 0)) == [()]


# --- the interpreter's lock, Ctrl-C, threads, iterators --------------------


def seconds_to_interrupt(call):
    """Sends SIGINT to this process 0.3 s into `call`, which must raise
    KeyboardInterrupt; returns how long after the signal it came.

    Python turns SIGINT into KeyboardInterrupt only when it starts with the
    signal's default disposition; a test run started in the background of a
    shell without job control starts with SIGINT ignored, so the handler is
    put in place for the call and the old disposition restored after it."""
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
        caught = time.monotonic()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    return caught - sent[0]


def test_ctrl_c_interrupts_a_long_count_quickly():
    assert settles()
    delay = seconds_to_interrupt(lambda: queens.count(17))  # minutes of work
    assert delay < 0.5, f"KeyboardInterrupt came {delay:.3f} s after SIGINT"
    assert settles(), "the counting threads did not stop after Ctrl-C"


def odd_matching(items=25):
    """Pairs to cover an odd number of items: no solution, and a search that takes minutes to say so."""
    names = [str(i) for i in range(items)]
    return xcover.Problem(names, [[a, b] for i, a in enumerate(names) for b in names[i + 1:]])


def test_ctrl_c_interrupts_an_iterator_waiting_for_its_next_solution():
    assert settles()
    solutions = odd_matching().solutions()
    assert seconds_to_interrupt(lambda: next(solutions)) < 0.5
    assert next(solutions, None) is None, "an interrupted iterator ends"
    del solutions
    assert settles()


def test_close_stops_an_iterator():
    it = sudoku.solutions("." * 81)
    next(it)
    it.close()
    assert list(it) == []


def test_long_calls_release_the_interpreter_lock():
    ticks = []
    done = threading.Event()

    def count():
        queens.count(14, threads=1)
        done.set()

    worker = threading.Thread(target=count)
    worker.start()
    while not done.is_set():
        ticks.append(1)
        time.sleep(0.001)
    worker.join()
    assert len(ticks) > 10, "the main thread did not run while the count ran"


def test_calls_from_many_python_threads_agree():
    results = {}

    def work(k):
        results[k] = (queens.count(9 + k % 2), sudoku.solve_many([GRID] * 50, threads=2)[k])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == {k: (352 if k % 2 == 0 else 724, SOLVED) for k in range(8)}


@pytest.mark.parametrize("make", [
    lambda: queens.solutions(16),
    lambda: sudoku.solutions("." * 81),
    lambda: choose.perm(12, 12),
    lambda: xcover.Problem([str(i) for i in range(8)], [[str(i), str(j)] for i in range(8) for j in range(i + 1, 8)]
                           + [[str(i)] for i in range(8)]).solutions(),
])
def test_dropping_an_iterator_midway_ends_its_thread(make):
    assert settles()
    it = make()
    first = [next(it) for _ in range(5)]
    assert len(first) == 5
    assert workers() == 1
    del it
    assert settles(), "the search thread outlived its iterator"


def test_iterator_ends_and_stays_ended():
    it = queens.solutions(4)
    assert list(it) == [(1, 3, 0, 2), (2, 0, 3, 1)]
    assert next(it, None) is None
    assert iter(it) is it


# --- documentation ----------------------------------------------------------


def documented():
    objects = [backtrack, backtrack.ParseError]
    for module in (sudoku, queens, xcover, choose):
        objects += [getattr(module, name) for name in module.__all__]
    objects.append(xcover.Problem.parse)
    return objects


@pytest.mark.parametrize("obj", documented(), ids=lambda o: getattr(o, "__qualname__", o.__name__))
def test_docstring_examples(obj):
    finder = doctest.DocTestFinder(recurse=False)
    tests = [t for t in finder.find(obj, name=obj.__name__) if t.examples]
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0


def test_every_public_function_has_an_example():
    missing = [o.__name__ for o in documented() if ">>>" not in (o.__doc__ or "")]
    assert missing == ["Rating", "Step"]


def test_readme_tour():
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Python"):]
    section = section[:section.index("\n## ", 1)]
    blocks = re.findall(r"```pycon\n(.*?)```", section, re.S)
    assert blocks, "the README's Python section has no examples"
    assert "pip install ./python" in section
    runner = doctest.DocTestRunner()
    for k, block in enumerate(blocks):
        runner.run(doctest.DocTestParser().get_doctest(block, {}, f"README[{k}]", "README.md", 0))
    assert runner.failures == 0


def test_stubs_match_the_module():
    pytest.importorskip("mypy")
    result = subprocess.run([sys.executable, "-m", "mypy.stubtest", "backtrack"], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_is_typed():
    package = Path(backtrack.__file__).parent
    assert (package / "py.typed").exists()
    assert {p.name for p in package.glob("*.pyi")} >= {"__init__.pyi", "sudoku.pyi", "queens.pyi", "xcover.pyi",
                                                         "choose.pyi"}


def test_fpuzzles_json_and_urls_are_read_like_the_command_line():
    # examples/fpuzzles.txt: a 4x4 as one-line f-puzzles JSON, then ISS's
    # thermo example as an f-puzzles URL (lz-string compressed).
    json_line, url = (ROOT / "examples" / "fpuzzles.txt").read_text().strip().split("\n")
    assert json_line.startswith("{") and "load=" in url
    assert sudoku.solve(json_line) == "1234341243212143"
    assert sudoku.count(json_line, limit=2) == 1
    assert sudoku.solve(url) == VARIANT_SOLUTIONS[0]
    assert sudoku.solve(url.split("load=", 1)[1]) == VARIANT_SOLUTIONS[0]
    assert sudoku.solve_many([json_line, url]) == ["1234341243212143", VARIANT_SOLUTIONS[0]]
    assert [c[0] for c in sudoku.candidates(url).candidates] == [int(d) for d in VARIANT_SOLUTIONS[0]]
    with pytest.raises(ParseError) as e:
        sudoku.solve('{"size":4,"grid":[],"clone":[]}')
    assert (e.value.line, e.value.column) == (1, 21)
    assert "unsupported f-puzzles constraint 'clone'" in str(e.value)


def test_solve_many_on_a_text_of_lines_reports_a_clash_with_its_line():
    # GRID opens with "4.": a second 4 in the first row clashes.
    clash = "44" + GRID[2:]
    text = "# header\n" + GRID + "\r\n\n" + GRID + "\n" + clash + "\n"
    with pytest.raises(ParseError) as e:
        sudoku.solve_many(text)
    assert (e.value.line, e.value.column) == (5, 2)
    assert sudoku.solve_many("\ufeff" + GRID + "\n# note\n" + GRID) == [SOLVED, SOLVED]


def test_xcover_bounds_and_costs():
    # Two 1s in each row and column of a 4x4 0/1 matrix: OEIS A001499, 90.
    cells = [f"r{i} c{j}" for i in range(4) for j in range(4)]
    names = [f"r{i}" for i in range(4)] + [f"c{j}" for j in range(4)]
    two = xcover.Problem(names, cells, bounds={n: (2, 2) for n in names})
    assert two.count() == 90 and two.bounds("r0") == (2, 2)
    assert xcover.Problem.parse("2|a b\na b\na\nb\na\n").count() == xcover.Problem(
        ["a", "b"], ["a b", "a", "b", "a"], bounds={"a": (2, 2)}).count() == 3
    with pytest.raises(ValueError, match="not a primary item"):
        xcover.Problem(["a"], ["a"], bounds={"z": (0, 1)})
    # The k cheapest against every solution priced by hand.
    options = ["a b", "a", "b", "c", "a c", "b c", "a b c"]
    costs = [4, 1, 2, 3, 3, 2, 9]
    priced = xcover.Problem(["a", "b", "c"], options, costs=costs)
    every = sorted((sum(costs[o] for o in s), sorted(s)) for s in priced.solutions())
    best = priced.best(len(every) + 2)
    assert [c for c, _ in best] == [c for c, _ in every]
    assert sorted(map(tuple, (o for _, o in best))) == sorted(map(tuple, (o for _, o in every)))
    assert priced.best() == [best[0]] and priced.cost(6) == 9
    assert priced.best_costs(len(every) + 2) == [c for c, _ in every] and priced.best_costs() == [best[0][0]]
    with pytest.raises(ValueError, match="costs has 2 entries for 7 options"):
        xcover.Problem(["a", "b", "c"], options, costs=[1, 2])
    # Knuth's format: |n cost tokens on the options.
    assert xcover.Problem.parse("a b\na b |5\na |1\nb |2\n").best(1) == [(3, [1, 2])]
