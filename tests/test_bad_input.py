"""Bad input through the command line: one located error, exit 2, never a traceback.

And the other half of being reliable: what people paste that is not wrong
(tabs, CRLF, a BOM, trailing spaces, thousands separators) solves exactly as
the clean file does, in every family and layout where it applies.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time

import pytest

from conftest import EXAMPLES, unexpand

EMPTY_ROW = ". . . . . . . . ."
GRID = "\n".join([EMPTY_ROW] * 9) + "\n"


def grid_with(row: int, text: str) -> str:
    """The empty Sudoku grid with its row `row` (1-based) replaced by `text`."""
    rows = [EMPTY_ROW] * 9
    rows[row - 1] = text
    return "\n".join(rows) + "\n"


# Each case: a layout, its text, then where the error points (line, column) and words it says.
# CrossProduct's cases come in both layouts, plain text and the markdown table.
MALFORMED = [
    # ragged rows: a row with a cell too few or too many
    ("text", "6 8\n? ? 6\n? 8\n", 3, 3, "this row has 1 cell before its product; the puzzle has 2"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**6**|\n|?|**8**|\n", 4, 6, "this row has 1 cell"),
    ("text", "6 8\n? ? 6\n? ? ? 8\n", 3, 5, "this row has 3 cells"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**6**|\n|?|?|?|**8**|\n", 4, 6, "this row has 3 cells"),
    # a missing product: of a row, or of a column
    ("text", "6 8\n? ? 6\n? ?\n", 3, 3, "a product is a number, not '?'"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**6**|\n|?|?|\n", 4, 4, "a product is a number, not '?'"),
    ("text", "6\n? ? 6\n? ? 8\n", 2, 3, "this row has 2 cells before its product; the puzzle has 1 column"),
    ("markdown", "|6|\n|---|---|\n|?|?|**6**|\n", 3, 4, "this row has 2 cells"),
    # a non-number where a product goes
    ("text", "6 8\n? ? six\n", 2, 5, "expected a digit, '?' or a product, found 'six'"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**six**|\n", 3, 6, "found '**six**'"),
    ("text", "6 8\n? ? 6.5\n", 2, 5, "found '6.5'"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|6.5|\n", 3, 6, "found '6.5'"),
    ("text", "6 8.0\n? ? 6\n", 1, 3, "found '8.0'"),
    ("markdown", "|6|8.0|\n|---|---|\n|?|?|**6**|\n", 1, 4, "found '8.0'"),
    # a zero or negative product, of a row or a column
    ("text", "6 8\n? ? 0\n", 2, 5, "a product of 0 needs zero digits"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**0**|\n", 3, 8, "a product of 0 needs zero digits"),
    ("text", "6 0\n? ? 6\n", 1, 3, "a product of 0 needs zero digits"),
    ("markdown", "|6|0|\n|---|---|\n|?|?|**6**|\n", 1, 4, "a product of 0 needs zero digits"),
    ("text", "6 8\n? ? -6\n", 2, 5, "found '-6'"),
    ("markdown", "|6|8|\n|---|---|\n|?|?|**-6**|\n", 3, 6, "found '**-6**'"),
    ("text", "6 -8\n? ? 6\n", 1, 3, "found '-8'"),
    ("markdown", "|6|-8|\n|---|---|\n|?|?|**6**|\n", 1, 4, "found '-8'"),
    # letters where digits go, alone or glued to a digit; and a cell of two digits
    ("text", "6 8\n? a 6\n", 2, 3, "found 'a'"),
    ("markdown", "|6|8|\n|---|---|\n|?|a|**6**|\n", 3, 4, "found 'a'"),
    ("text", "6 8\n? 3a 6\n", 2, 3, "found '3a'"),
    ("markdown", "|6|8|\n|---|---|\n|?|3a|**6**|\n", 3, 4, "found '3a'"),
    ("text", "6 8\n??6\n", 2, 1, "found '??6'"),
    ("text", "6 8\n? 12 6\n", 2, 3, "a cell holds one digit or '?', not '12'"),
    ("markdown", "|6|8|\n|---|---|\n|?|12|**6**|\n", 3, 4, "a cell holds one digit or '?', not '12'"),
    # a number too long for any puzzle is refused, not read
    ("text", "6 " + "9" * 5000 + "\n? ? 6\n", 1, 3, "numbers have at most 1,000 digits"),
    ("markdown", "|6|8|[1×" + "9" * 5000 + "]|\n|---|---|---|\n|?|?|**6**|\n", 1, 9, "at most 1,000 digits"),
    # Sudoku: a directive the grammar does not know, a bad value, letters in the grid
    ("sudoku", "# colour: red\n" + GRID, 1, 1, "unknown directive 'colour' (known: digits, maximize)"),
    ("sudoku", "# digits: 0-9 choose 9\n# maximise: gcd(rows)\n" + GRID, 2, 1,
     "unknown directive 'maximise'"),
    ("sudoku", "# digits: one-nine\n" + GRID, 1, 11, "expected a digit range like 1-9 or 0-9 choose 9"),
    ("sudoku", "# digits: 0-9 choose " + "9" * 5000 + "\n" + GRID, 1, 22, "at most 1,000 digits"),
    ("sudoku", grid_with(4, ". . . x . . . . ."), 4, 7, "expected a digit, '.', '_' or '?', found 'x'"),
    ("sudoku", grid_with(2, ". . . . . . . ."), 2, 16, "this row has 8 cells; a sudoku row has 9"),
    # CrossCells: a column constraint over no column or two; a group with no cells
    ("crosscells", "+1 +2 =3\n         =1\n", 2, 10, "this column constraint overlaps no column of cells"),
    ("crosscells", "+1 +2 =3\n =1234\n", 2, 2, "this column constraint overlaps two columns"),
    ("crosscells", "  +1a +2 =3\n=2\n", 2, 1, "overlaps no column"),
    ("crosscells", "+1a +2 =3\nb#1\n", 2, 1, "no cell is in group 'b'"),
    ("crosscells", "+1a +2b =3\na#1 c=4\n", 2, 5, "no cell is in group 'c'"),
    ("crosscells", "+1 +x =3\n", 1, 4, "found '+x'"),
    ("crosscells", "+1 +2 =three\n", 1, 7, "found '=three'"),
    ("crosscells", "+1 +2 =3\n+4 +5 =6\n=1\n+7 +8 =9\n", 3, 1, "between rows only group constraints"),
]


def family_option(layout: str) -> list[str]:
    return ["--family", layout if layout in ("sudoku", "crosscells") else "crossproduct"]


@pytest.mark.parametrize("layout, text, line, column, words", MALFORMED,
                         ids=[f"{case[0]}-{n}" for n, case in enumerate(MALFORMED)])
def test_a_malformed_layout_is_one_located_error_with_a_caret(cli, write, layout, text, line, column,
                                                              words):
    """Exactly `PATH:LINE:COL: error: ...`, the offending line (of a long one, the part
    around the column), a caret under the column; exit 2."""
    path = write(text)
    source = text.splitlines()[line - 1]
    for args in ([], family_option(layout)):  # the family guessed, and named
        run = cli("solve", path, *args)
        assert run.code == 2 and run.out == ""
        head, shown, caret = run.err.splitlines()
        assert head.startswith(f"{path}:{line}:{column}: error: ") and words in head, head
        if len(source) <= 80:
            assert shown == source and caret == " " * (column - 1) + "^"
        else:
            assert len(shown) <= 90 and shown.strip(".") in source
            assert shown[len(caret) - 1] == source[column - 1] and caret.strip() == "^"


def test_every_puzzle_command_reports_the_same_error(cli, write):
    """solve, count, check and export agree on the error and its place."""
    path = write("6 8\n? ? 6\n? 8\n")
    errors = {command: cli(command, path) for command in ("solve", "count", "check", "export")}
    assert {command: run.code for command, run in errors.items()} == dict.fromkeys(errors, 2)
    assert len({run.err for run in errors.values()}) == 1


# Text that is no puzzle at all, whatever the family.

FAMILIES = [[], ["--family", "crossproduct"], ["--family", "crosscells"], ["--family", "sudoku"]]
FAMILY_IDS = ["guessed", "crossproduct", "crosscells", "sudoku"]
NO_PUZZLE = [("empty", b""), ("blank", b"\n  \n\t\n"), ("only-comments", b"# nothing here\n# at all\n")]
NOT_TEXT = [
    # (name, bytes, line, column, words)
    ("png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", 1, 1, "byte 0x89 is not UTF-8 text"),
    ("gzip", b"\x1f\x8b\x08\x00\x00\x00\x00\x00", 1, 2, "byte 0x8b is not UTF-8 text"),
    ("latin-1", "6 8\n? ? 6\n# café\n".encode("latin-1"), 3, 6, "byte 0xe9 is not UTF-8 text"),
]


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_IDS)
@pytest.mark.parametrize("name, data", NO_PUZZLE, ids=[c[0] for c in NO_PUZZLE])
def test_a_file_with_no_puzzle_is_one_error_line(cli, tmp_path, family, name, data):
    """Empty, blank or only comments: one line saying there is no puzzle (Sudoku points at the
    end of the text, where its grid was expected; the others at the start)."""
    path = tmp_path / f"{name}.txt"
    path.write_bytes(data)
    run = cli("solve", path, *family)
    assert run.code == 2 and run.out == ""
    line = data.count(b"\n") + 1 if "sudoku" in family else 1
    [head] = run.err.splitlines()
    assert head.startswith(f"{path}:{line}:1: error: no ") and " here" in head, head


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_IDS)
@pytest.mark.parametrize("name, data, line, column, words", NOT_TEXT, ids=[c[0] for c in NOT_TEXT])
def test_binary_files_are_one_located_error(cli, tmp_path, family, name, data, line, column, words):
    """A file that is not UTF-8 text: one error line at the first bad byte (no line to show)."""
    path = tmp_path / f"{name}.txt"
    path.write_bytes(data)
    run = cli("solve", path, *family)
    assert run.code == 2 and run.out == ""
    [head] = run.err.splitlines()
    assert head.startswith(f"{path}:{line}:{column}: error: ") and words in head, head


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_IDS)
def test_control_characters_are_located_and_never_echoed(cli, tmp_path, family):
    """NUL or an escape sequence in UTF-8 text: an error at the character, shown as U+FFFD."""
    path = tmp_path / "control.txt"
    path.write_bytes(b"6 8\n? \x1b[2J\x00 6\n")
    run = cli("solve", path, *family)
    assert run.code == 2
    assert run.err.splitlines() == [f"{path}:2:3: error: unexpected control character '\\x1b': "
                                    "this does not look like puzzle text",
                                    "? \ufffd[2J\ufffd 6", "  ^"]


NON_ASCII_DIGITS = [  # where a digit of another script stands: (name, text, line, column)
    ("crossproduct-product-arabic-indic", "6 ٨\n? ? 6\n? ? 8\n", 1, 3),
    ("crossproduct-cell-arabic-indic", "6 8\n? ٣ 6\n", 2, 3),
    ("crossproduct-markdown-full-width", "|６|8|\n|---|---|\n|?|?|**6**|\n", 1, 2),
    ("crosscells-total-devanagari", "+1 +2 =३\n", 1, 8),
    ("crosscells-cell-full-width", "+1 +２ =3\n", 1, 5),
    ("sudoku-given-arabic-indic", grid_with(1, "٣ . . . . . . . ."), 1, 1),
    ("sudoku-directive-full-width", "# digits: ０-9 choose 9\n" + GRID, 1, 11),
    ("superscript", "6 8\n? ? 6\n? ? ²\n", 3, 5),
]


@pytest.mark.parametrize("name, text, line, column", NON_ASCII_DIGITS, ids=[c[0] for c in NON_ASCII_DIGITS])
def test_digits_of_other_scripts_are_refused_everywhere_with_a_located_error(cli, write, name, text,
                                                                            line, column):
    run = cli("solve", write(text))
    head, shown, caret = run.err.splitlines()
    assert run.code == 2 and head.startswith(f"{write(text)}:{line}:{column}: error: ")
    assert "is not one of the digits 0-9: write numbers with 0-9" in head
    assert caret == " " * (column - 1) + "^"


def test_an_error_in_a_huge_line_shows_the_part_around_its_column(cli, write):
    path = write("6 " + "9" * 999_000 + "\n? ? 6\n")
    run = cli("solve", path)
    head, shown, caret = run.err.splitlines()
    assert run.code == 2 and head.startswith(f"{path}:1:3: error: numbers have at most 1,000 digits")
    assert len(run.err) < 400 and shown.startswith("6 999") and shown.endswith("...")
    assert caret == "  ^"


@pytest.mark.parametrize("family", FAMILIES, ids=FAMILY_IDS)
def test_a_10_mb_file_is_refused_fast(cli, tmp_path, family):
    """Ten megabytes of cells: refused in well under a second, one error line, exit 2."""
    path = tmp_path / "huge.txt"
    path.write_text("6 8\n" + "? ? 6\n" * (10_000_000 // 6))
    start = time.perf_counter()
    run = cli("solve", path, *family)
    assert time.perf_counter() - start < 2
    assert run.code == 2 and run.out == ""
    [head] = run.err.splitlines()
    assert head.startswith(f"{path}:1:1: error: ")


def test_bad_files_never_show_a_traceback(tmp_path):
    """The real program, one process for many bad files: only located errors, exit 2."""
    files = []
    for n, (_, text, line, column, _) in enumerate(MALFORMED[::3]):
        files.append((tmp_path / f"bad-{n}.txt", line, column))
        files[-1][0].write_text(text)
    for name, data in NO_PUZZLE:
        files.append((tmp_path / f"{name}.txt", 1, 1))
        files[-1][0].write_bytes(data)
    for name, data, line, column, _ in NOT_TEXT:
        files.append((tmp_path / f"{name}.txt", line, column))
        files[-1][0].write_bytes(data)
    huge = tmp_path / "huge.txt"
    huge.write_text("? " * 5_000_000)
    files.append((huge, 1, 1))
    done = subprocess.run([sys.executable, "-m", "crossprolog", "solve", *(str(f) for f, _, _ in files)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    heads = [line for line in done.stderr.splitlines() if ": error: " in line]
    assert len(heads) == len(files)
    for path, line, column in files:
        assert any(head.startswith(f"{path}:{line}:{column}: error: ") for head in heads), path


def test_tabs_count_to_the_next_stop_of_8_in_error_columns(cli, write):
    """A tab moves to the next multiple of 8: the column and the caret are where the eye sees."""
    path = write("6\t8\n?\ta\t6\n")
    run = cli("solve", path)
    assert run.err.splitlines() == [f"{path}:2:9: error: expected a digit, '?' or a product, found 'a' "
                                    "(read as CrossProduct: 1 of 2 lines are numbers and '?'; "
                                    "name the family with --family if it is another)",
                                    "?       a       6", "        ^"]


# What people paste, that is not wrong: the same answer as the clean file.


def tabs_for_spaces(text: str) -> str:
    return text.replace(" ", "\t")


def crlf(text: str) -> str:
    return text.replace("\n", "\r\n")


def bom(text: str) -> str:
    return "\ufeff" + text


def trailing_spaces(text: str) -> str:
    return text.replace("\n", "   \n") + "  "


def thousands(text: str) -> str:
    return re.sub(r"(?<![\d,])\d{4,}(?![\d,])", lambda m: f"{int(m[0]):,}", text)


def everything(text: str) -> str:
    return bom(crlf(trailing_spaces(thousands(text))))


# Each layout: a clean example, how tabs go into it without changing what it looks like,
# and whether numbers in it may carry thousands separators.
PASTED_LAYOUTS = {
    "crossproduct-text": (EXAMPLES / "crossproduct" / "riddler-3.txt", tabs_for_spaces, True),
    "crossproduct-markdown": (EXAMPLES / "crossproduct" / "riddler-2.md", tabs_for_spaces, True),
    "crosscells": (EXAMPLES / "crosscells" / "puzzle-25.txt", unexpand, False),
    "crosscells-ragged": (EXAMPLES / "crosscells" / "ragged.txt", unexpand, False),
    "sudoku": (EXAMPLES / "sudoku" / "ai-escargot.txt", tabs_for_spaces, False),
}
PASTES = {"tabs": None, "crlf": crlf, "bom": bom, "trailing-spaces": trailing_spaces,
          "thousands": thousands, "everything": everything}
PASTED = [(layout, paste) for layout, (_, _, grouped) in PASTED_LAYOUTS.items() for paste in PASTES
          if paste != "thousands" or grouped]


@pytest.mark.parametrize("layout, paste", PASTED, ids=[f"{layout}-{paste}" for layout, paste in PASTED])
def test_pasted_text_solves_to_the_same_answer(cli, write, layout, paste):
    """Tabs, CRLF, a BOM, trailing spaces, `6,615`: accepted, and the same solution."""
    example, tabs, _ = PASTED_LAYOUTS[layout]
    clean = example.read_text()
    pasted = (PASTES[paste] or tabs)(clean)
    assert pasted != clean
    expected = cli("solve", example, "--format", "json").json()["solution"]
    path = write(pasted)
    path.write_bytes(pasted.encode("utf-8"))  # keep CR and the BOM as they are
    run = cli("solve", path, "--format", "json")
    assert run.code == 0, run.err
    assert run.json()["solution"] == expected


def test_tabbed_crosscells_keep_their_columns():
    """A CrossCells drawing aligned with tabs reads the columns it shows."""
    import crossprolog

    tabbed = "+1\t+2\t=3\n\t#1\n"  # #1 stands under +2
    assert crossprolog.parse(tabbed) == crossprolog.parse("+1      +2      =3\n        #1\n")
    assert [column.tail for column in crossprolog.parse(tabbed).columns][1].text == "#1"


def test_no_break_spaces_from_web_pages_are_blanks(cli, write):
    """A no-break space (U+00A0) pasted between tokens is a blank, not a control character."""
    clean = EXAMPLES / "crossproduct" / "riddler-1.txt"
    pasted = write(clean.read_text().replace(" ", "\u00a0"))
    run = cli("solve", pasted, "--format", "json")
    assert run.code == 0, run.err
    assert run.json()["solution"] == cli("solve", clean, "--format", "json").json()["solution"]


def test_a_long_option_value_is_shown_cut_short_in_its_error(tmp_path):
    """A 5,000-digit --seed (past the digits Python reads) was echoed whole."""
    long = "7" * 5000
    for args, said in ((["generate", "kakuro", "--rows", "5", "--cols", "5", "--seed", long],
                        "argument --seed: must be an integer of at most 4,300 digits, not '7777"),
                       (["generate", "crosscells", "--rows", "5", "--cols", "5", "--game", "g" * 5000],
                        "argument --game: invalid choice: 'gggg"),
                       (["stats", "kakuro", "--seed", "x" * 5000], "argument --seed: must be an integer"),
                       (["solve", "x.txt", "--timeout", long], "argument --timeout: must be a positive number")):
        done = subprocess.run([sys.executable, "-m", "crossprolog", *args], capture_output=True, text=True,
                              timeout=60)
        last = done.stderr.splitlines()[-1]
        assert done.returncode == 2 and said in last and len(last) < 250, last
