"""KenKen, Killer Sudoku, Kakuro and Sudoku texts read in one pass (each grammar's
`read_all`) give the puzzles, and the located errors, that reading piece by piece
gives: on generated texts of every size and rule, on the examples, and on texts
with a few characters changed.  Nothing here times anything."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import crossprolog
from crossprolog.grammars import kakuro, kenken, killer_sudoku, sudoku
from crossprolog.registry import PLAIN_SEPARATOR, _read_at_once, parse_piece, pieces, read_pieces

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
READERS = {"kenken": kenken.read_all, "killer_sudoku": killer_sudoku.read_all,
           "kakuro": kakuro.read_all, "sudoku": sudoku.read_all}
# What a damaged text may hold: each family's own characters, and what breaks them.
MARKS = {"kenken": "abcdefghAB0123456789 *+-/x:\n=#.", "killer_sudoku": "abcdefghAB0123456789 .:_\n=#",
         "kakuro": "X.\\0123456789 \n=#", "sudoku": "0123456789.|-+_? \n=#"}


def shown(puzzles) -> list:
    """Everything of each puzzle: its fields (those equality skips too) and its text."""
    return [(vars(puzzle), puzzle.render()) for puzzle in puzzles]


def read(text: str, **options):
    """What parse_all gives (the puzzles, as `shown`), or its error."""
    try:
        return shown(crossprolog.parse_all(text, **options))
    except crossprolog.CrossprologError as error:
        return type(error), str(error)


def read_piece_by_piece(text: str, **options):
    family = options.pop("family", None)
    try:
        return shown([parse_piece(piece, **options) for piece in pieces(text, family)])
    except crossprolog.CrossprologError as error:
        return type(error), str(error)


def read_as_the_command_line(text: str, family: str | None, **options):
    """The puzzles of `text` (as `shown`) read as the command line reads a file, or the
    first error."""
    try:
        return shown([puzzle or parse_piece(piece, **options) for piece, puzzle in
                      read_pieces(text, family, **options)])
    except crossprolog.CrossprologError as error:
        return type(error), str(error)


def text_of(puzzles) -> str:
    """The puzzles as `crossprolog generate -n N` prints them (bench/run.py reads that)."""
    return "\n".join(f"== {n}\n{puzzle.render()}\n" for n, puzzle in enumerate(puzzles, start=1))


# (family, size, seed, well-formed): every size the families generate.
GENERATED = [("kenken", size, seed, False) for size in (3, 4, 6, 9) for seed in (1, 2)] + [
    ("kenken", 4, 3, True),
    *[("killer_sudoku", size, seed, False) for size in (4, 6, 9) for seed in (1, 2)],
    ("killer_sudoku", 4, 3, True), ("killer_sudoku", 6, 4, True),
    *[("kakuro", size, seed, False) for size in (5, 7, 12) for seed in (1, 2)],
    ("kakuro", 5, 3, True), ("sudoku", 9, 1, False), ("sudoku", 9, 2, False), ("sudoku", 9, 3, True)]
# Every rule option of each family, read as the command line reads it; the one-pass
# readers read the plain 1-9 Sudoku only (the others piece by piece).
OPTIONS = {"kenken": [{}], "killer_sudoku": [{}, {"game": "killer-sudoku"}], "kakuro": [{}],
           "sudoku": [{}, {"objective": "gcd(rows)"}, {"objective": "gcd(cols)"}, {"digits": "1-9"},
                      {"digits": "0-9 choose 9"}, {"digits": "1-10 choose 9", "objective": "gcd(rows)"}]}


@pytest.mark.parametrize("family, size, seed, well_formed", GENERATED)
def test_generated_texts_read_in_one_pass_as_piece_by_piece(family, size, seed, well_formed):
    made = list(crossprolog.generate(family, size, size, n=6, seed=seed, well_formed=well_formed))
    text = text_of(made)
    by_pieces = read_piece_by_piece(text)
    assert shown(made) == by_pieces
    assert shown(READERS[family](text, PLAIN_SEPARATOR)) == by_pieces
    for options in OPTIONS[family]:
        plain = options.get("digits") in (None, "1-9")
        for named in (family, None):  # named, and guessed
            at_once = _read_at_once(text, named, dict(options))
            assert (at_once is not None) == plain, (named, options)  # in one pass, not piece by piece
            assert read(text, family=named, **options) == read_piece_by_piece(text, family=named, **options)
            found = read_pieces(text, named, **options)  # what the command line reads files with
            assert [piece[:5] for piece, _ in found] == [piece[:5] for piece in pieces(text, named)]
            assert all(puzzle is not None for _, puzzle in found) == plain
            assert read_as_the_command_line(text, named, **options) == \
                read_piece_by_piece(text, family=named, **options)


@pytest.mark.parametrize("family", list(READERS))
def test_examples_read_in_one_pass_as_piece_by_piece(family):
    files = sorted((EXAMPLES / family).glob("*.txt"))
    texts = [path.read_text(encoding="utf-8") for path in files]
    texts.append("\n".join(f"== {path.stem}\n{text}" for path, text in zip(files, texts)))
    for text in texts:
        for named in (family, None):
            assert read(text, family=named) == read_piece_by_piece(text, family=named)


def test_the_examples_of_the_common_layouts_are_read_in_one_pass():
    for family, names in {"kenken": ("issue-4x4", "random-6x6", "random-9x9"),
                          "killer_sudoku": ("random-6x6", "random-9x9", "shidoku-4x4"),
                          "kakuro": ("random-12x12", "random-7x7", "tiny"),
                          "sudoku": ("ai-escargot", "brute-force-17", "golden-nugget")}.items():
        text = "\n".join(f"== {name}\n" + (EXAMPLES / family / f"{name}.txt").read_text(encoding="utf-8")
                         for name in names)
        assert _read_at_once(text, None, {}) is not None, family
        assert _read_at_once(text, family, {}) is not None, family


@pytest.mark.parametrize("family", list(READERS))
def test_damaged_texts_are_refused_or_read_as_piece_by_piece(family):
    rng = random.Random(family)
    size = {"kenken": 4, "killer_sudoku": 4, "kakuro": 5, "sudoku": 9}[family]
    made = list(crossprolog.generate(family, size, size, n=2, seed=7))
    original = f"{made[0].render()}\n== x\n{made[1].render()}"
    texts = [original, made[0].render(), "== a\n\n== b\n" + made[0].render(), "==\n==\n",
             "\t" + original, original.replace("\n", "\r\n"), "# a comment\n== 1\n" + original,
             "# note: a directive\n" + original, original.replace("\n", "\n\n")]
    for _ in range(120):  # a few characters changed: refused, or read otherwise, the same way
        chars = list(original)
        for _ in range(rng.randint(1, 3)):
            chars[rng.randrange(len(chars))] = rng.choice(MARKS[family])
        texts.append("".join(chars))
    for text in texts:
        for named in (family, None):
            assert read(text, family=named) == read_piece_by_piece(text, family=named), (text, named)
            assert read_as_the_command_line(text, named) == read_piece_by_piece(text, family=named)


def test_a_sudoku_collection_of_lines_of_81_cells_is_read_in_one_pass():
    made = list(crossprolog.generate("sudoku", 9, 9, n=5, seed=3))
    lines = ["".join("." if d is None else str(d) for row in p.givens for d in row) for p in made]
    zeros = [line.replace(".", "0") for line in lines]
    for text in ["\n".join(lines) + "\n", "# five puzzles\n" + "\n".join(lines), "== a\n" + lines[0],
                 "\n".join(zeros), "== a\n" + zeros[0] + "\n== b\n" + lines[1]]:
        assert _read_at_once(text, None, {}) is not None
        assert read(text) == read_piece_by_piece(text) == read_as_the_command_line(text, None)
        assert None not in [puzzle for _, puzzle in read_pieces(text)]
        puzzles = crossprolog.parse_all(text)
        assert [p.givens for p in puzzles] == [p.givens for p in made[:len(puzzles)]]


def test_a_text_mixing_families_is_read_piece_by_piece():
    kenken_text = next(crossprolog.generate("kenken", 4, 4, seed=1)).render()
    kakuro_text = next(crossprolog.generate("kakuro", 5, 5, seed=1)).render()
    text = f"== 1\n{kenken_text}\n== 2\n{kakuro_text}\n"
    assert _read_at_once(text, None, {}) is None
    assert [p.family for p in crossprolog.parse_all(text)] == ["kenken", "kakuro"]


def test_a_cage_is_connected_as_the_grammars_say():
    from crossprolog.grammars.lettered import unconnected
    from crossprolog.grammars.one_pass import connected

    rng = random.Random(3)
    for _ in range(3000):
        places = sorted({(rng.randrange(9), rng.randrange(9)) for _ in range(rng.randint(1, 7))})
        assert connected(places) == (unconnected(places) is None), places


def test_the_command_line_reads_a_file_of_puzzles_in_one_pass(cli, write, monkeypatch):
    """check, as solve, count, hint and the rest, over a file of many puzzles: the same
    records, and no puzzle read again by itself."""
    from crossprolog.cli import batches

    path = write(text_of(crossprolog.generate("kenken", 6, 6, n=5, seed=1)), name="many.txt")
    records = cli("check", path, "--format", "json").jsonl()
    assert [record["puzzle"] for record in records] == [1, 2, 3, 4, 5]
    read_alone = []
    monkeypatch.setattr(batches, "parse_piece", lambda piece, **options: read_alone.append(piece))
    assert [drop_times(r) for r in cli("check", path, "--format", "json").jsonl()] == \
        [drop_times(r) for r in records]
    assert read_alone == []


def drop_times(record: dict) -> dict:
    return {key: value for key, value in record.items() if key not in ("seconds", "cpu")}


def test_a_file_read_in_one_pass_has_the_time_of_all_its_puzzles(cli, write, monkeypatch):
    """--timeout gives each puzzle its seconds, reading it included: a file of five
    puzzles read in one pass may take five puzzles' time.  Reading made to take 1.5 s
    under --timeout 1 gives five records, not one timeout for the file (as before)."""
    import time

    from crossprolog.cli import inputs

    slow = inputs.read_pieces

    def read_slowly(*args, **options):
        time.sleep(1.5)
        return slow(*args, **options)

    monkeypatch.setattr(inputs, "read_pieces", read_slowly)
    path = write(text_of(crossprolog.generate("kenken", 4, 4, n=5, seed=1)), name="many.txt")
    records = cli("check", path, "--format", "json", "--timeout", "1").jsonl()
    assert [record["puzzle"] for record in records] == [1, 2, 3, 4, 5]
    assert all(record["status"] in ("unique", "several", "unsolvable") for record in records)
