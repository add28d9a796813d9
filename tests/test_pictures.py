"""Pictures: every SVG is well-formed XML and shows every clue and value of its puzzle,
its marks drawn (a hinted cell, the clues of a reason or a conflict, the cells two
solutions differ at, Sumplete's deleted numbers struck, Number Sums' kept ones
circled); rasterised, a picture is not blank and its colours stand where its marks
are; the command line's --format svg and html, the printable book, Jupyter, and the
pictures of the documentation, fresh."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

import crossprolog
from crossprolog import diagnosis, pictures
from crossprolog.backends import svg as svg_backend
from crossprolog.crosscells import CrossCells
from crossprolog.crossproduct import CrossProduct
from crossprolog.kakuro import Black, Kakuro
from crossprolog.kenken import KenKen
from crossprolog.killer_sudoku import KillerSudoku
from crossprolog.scene import MARKS
from crossprolog.sudoku import Sudoku

from conftest import EXAMPLES
from test_scenes import FORMS, form

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    """The text elements of an SVG document, which must parse as XML."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def clue_texts(puzzle) -> list[str]:
    """Every clue of a puzzle as its family writes it, found independently of the scene."""
    if isinstance(puzzle, CrossProduct):
        return [str(p) for p in puzzle.row_products + puzzle.column_products]
    if isinstance(puzzle, KenKen):
        return [cage.clue for cage in puzzle.cages]
    if isinstance(puzzle, CrossCells):
        return [c.text for c in puzzle.constraints()]
    if isinstance(puzzle, Sudoku):
        return [str(d) for row in puzzle.givens for d in row if d is not None]
    if isinstance(puzzle, KillerSudoku):
        return [str(cage.total) for cage in puzzle.cages]
    if isinstance(puzzle, Kakuro):
        return [str(clue) for row in puzzle.cells for cell in row if isinstance(cell, Black)
                for clue in (cell.down, cell.across) if clue is not None]
    raise AssertionError(type(puzzle))


def values(solution) -> list[str]:
    """Every value a solution puts in a cell, as its picture must write it."""
    puzzle = solution.puzzle
    if isinstance(puzzle, CrossCells):
        return [c.text.rstrip("!~") if puzzle.game == "crosscells"
                else str(-c.number if c.op == "-" else c.number) for c in puzzle.cells]
    if isinstance(puzzle, Kakuro):  # its black cells are 0 in a solution, and hold no digit
        return [str(d) for row in solution.to_json() for d in row if d]
    return [str(d) for row in solution.to_json() for d in row]


@pytest.mark.parametrize("name", FORMS)
def test_every_picture_is_xml_showing_every_clue_and_value(name):
    puzzle = form(name)
    solution = puzzle.solve()
    shown = Counter(texts(pictures.svg(solution)))
    assert not Counter(clue_texts(puzzle)) - shown, "every clue is drawn"
    assert not Counter(values(solution)) - shown, "every value is drawn"
    unsolved = Counter(texts(pictures.svg(puzzle)))
    assert not Counter(clue_texts(puzzle)) - unsolved


def classes(svg: str) -> Counter:
    """How many elements carry each mark (as their class)."""
    root = ET.fromstring(svg)
    return Counter(mark for element in root.iter() for mark in element.get("class", "").split())


def test_a_hint_marks_its_cell_and_the_clues_of_its_reason():
    riddler = form("crossproduct-plain")
    hint = riddler.hint()
    drawn = pictures.svg(riddler, hint)
    assert classes(drawn)["hinted"] == 1
    assert classes(drawn)["reason"] == len(hint.cells[0].clues)
    assert hint.cells[0].reason in " ".join(texts(drawn))


def test_a_conflict_marks_its_clues():
    typo = crossprolog.parse((ROOT / "docs/examples/typo.txt").read_text())
    clues = typo.conflict()
    drawn = pictures.svg(typo, clues)
    assert classes(drawn)["conflict"] == len(clues) == 1
    assert "cannot hold" in " ".join(texts(drawn))


def test_two_solutions_stand_side_by_side_their_differences_marked():
    several = crossprolog.parse("8 8 1\n? ? ? 8\n? ? ? 8\n? ? ? 1\n")
    first, second = list(several.solutions())[:2]
    seen = diagnosis.ambiguity(several, first, second)
    drawn = pictures.svg(seen)
    assert classes(drawn)["differs"] == 2 * len(seen.difference) > 0
    assert classes(seen._repr_svg_())["differs"] == 2 * len(seen.difference)  # in Jupyter too


def test_sumplete_strikes_the_deleted_numbers_and_number_sums_circles_the_kept():
    sumplete = form("crosscells-sumplete")
    solved = sumplete.solve()
    deleted = sum(on == 0 for row in solved.values for on in row)
    drawn = ET.fromstring(pictures.svg(solved))
    strikes = [e for e in drawn.iter(f"{SVG}line") if e.get("stroke") == "#c0392b"]
    assert len(strikes) == deleted > 0
    sums = form("crosscells-number-sums")
    solved = sums.solve()
    kept = sum(on for row in solved.values for on in row)
    assert len(list(ET.fromstring(pictures.svg(solved)).iter(f"{SVG}circle"))) == kept > 0


def test_kenken_walls_its_cages_and_writes_each_clue_in_the_cage_s_first_cell():
    puzzle = form("kenken-drawn")
    scene = puzzle.scene()
    corners = {s.at: s.corner.text for s in scene.squares if s.corner}
    assert corners == {cage.cells[0]: cage.clue for cage in puzzle.cages}
    assert sorted(map(sorted, scene.regions)) == sorted(sorted(cage.cells) for cage in puzzle.cages)
    thick = [e for e in ET.fromstring(pictures.svg(puzzle)).iter(f"{SVG}line")
             if e.get("stroke-width") == "3"]
    # the outline (4 sides of 4 cells) and a wall between each pair of cells of different cages
    size = puzzle.size
    cage = {cell: n for n, c in enumerate(puzzle.cages) for cell in c.cells}
    inner = sum(cage[r, c] != cage[r, c + 1] for r in range(size) for c in range(size - 1)) + \
        sum(cage[r, c] != cage[r + 1, c] for r in range(size - 1) for c in range(size))
    assert len(thick) == 4 * size + inner


def test_sudoku_walls_its_nine_boxes():
    scene = form("sudoku-classic").scene()
    assert len(scene.regions) == 9 and all(len(box) == 9 for box in scene.regions)


# Rasterised: not blank, and the colours where the marks are


def raster(svg: str):
    cairosvg = pytest.importorskip("cairosvg")
    Image = pytest.importorskip("PIL.Image")
    try:
        png = cairosvg.svg2png(bytestring=svg.encode())
    except OSError as error:  # no libcairo: scripts/setup installs it
        pytest.skip(f"cairo cannot be loaded: {error}")
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours(image) -> list[tuple[int, tuple[int, int, int]]]:
    """How many pixels of each colour."""
    return image.getcolors(maxcolors=image.width * image.height)


@pytest.mark.parametrize("name", ["crossproduct-plain", "crosscells-operators", "crosscells-sumplete",
                                  "sudoku-digit-set", "kenken-drawn"])
def test_a_rasterised_picture_is_not_blank(name):
    image = raster(pictures.svg(form(name).solve()))
    dark = sum(count for count, pixel in colours(image) if sum(pixel) < 300)
    assert image.width > 100 and image.height > 100
    assert dark > 0.02 * image.width * image.height, "lines and digits are drawn"


def test_a_rasterised_hint_is_yellow_at_the_hinted_cell_and_only_there():
    riddler = form("crossproduct-plain")
    drawn = pictures.svg(riddler, riddler.hint())
    image = raster(drawn)
    rect = next(e for e in ET.fromstring(drawn).iter(f"{SVG}rect") if "hinted" in e.get("class", "").split())
    x, y = float(rect.get("x")) + 4, float(rect.get("y")) + 4
    assert image.getpixel((int(x), int(y))) == (255, 230, 128)  # FILLS' yellow
    yellow = dict((pixel, count) for count, pixel in colours(image))[255, 230, 128]
    assert 30 * 30 < yellow <= 40 * 40  # one square's fill, less its digit


def inside(point: tuple[float, float], triangle: list[tuple[float, float]]) -> bool:
    """Whether `point` lies within `triangle` (by the signs of its three edges)."""
    (x, y), signs = point, set()
    for (x1, y1), (x2, y2) in zip(triangle, triangle[1:] + triangle[:1]):
        signs.add((x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) > 0)
    return len(signs) == 1


def test_a_kakuro_clue_square_is_coloured_in_the_half_of_the_clue_its_mark_names():
    """A clue square holds two clues, down below its diagonal and across above: a
    hint's reason (or a conflict) colours the half of the run it names, and the
    square stays grey elsewhere."""
    puzzle = crossprolog.parse((EXAMPLES / "kakuro" / "tiny.txt").read_text(encoding="utf-8"))
    hint = puzzle.hint()
    drawn = pictures.svg(puzzle, hint)
    root, image = ET.fromstring(drawn), raster(drawn)
    halves = [[tuple(map(float, point.split(","))) for point in e.get("points").split()]
              for e in root.iter(f"{SVG}polygon") if "reason" in e.get("class", "").split()]
    assert len(halves) == len(hint.cells[0].clues) == 3
    clues = [(e.text, (float(e.get("x")), float(e.get("y")) - 3)) for e in root.iter(f"{SVG}text")]
    assert sorted(text for text, at in clues for half in halves if inside(at, half)) == ["3", "4", "7"]
    for half in halves:
        (x1, y1), (x2, y2), (x3, y3) = half
        toward_corner = ((x1 + x3) / 2 * 0.2 + x2 * 0.8, (y1 + y3) / 2 * 0.2 + y2 * 0.8)
        assert image.getpixel(tuple(map(int, toward_corner))) == (207, 227, 255)  # FILLS' blue
    blue = dict((pixel, count) for count, pixel in colours(image)).get((207, 227, 255), 0)
    assert 3 * 600 < blue < 3 * 800  # three half squares, less their digits


# The command line


def run(cli_args: list[str], cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "crossprolog", *cli_args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_solve_format_svg_prints_one_picture_a_puzzle():
    done = run(["solve", "examples/kenken/issue-4x4.txt", "--format", "svg"])
    assert done.returncode == 0 and done.stderr == ""
    assert Counter(texts(done.stdout))["12*"] == 2
    several = run(["solve", "examples/kenken/issue-4x4.txt", "examples/crossproduct/riddler-1.txt",
                   "--format", "svg"])
    parts = re.split(r"^== .*\n", several.stdout, flags=re.M)[1:]
    assert len(parts) == 2 and all(texts(part) for part in parts)


def test_check_format_svg_out_dir_writes_a_picture_a_puzzle_and_keeps_the_exit_code(tmp_path):
    out = tmp_path / "pictures"
    done = run(["check", "docs/examples/typo.txt", "examples/kenken/issue-4x4.txt", "--format", "svg",
                "--out", str(out)])
    assert done.returncode == 1  # the typo has no solution
    assert done.stdout == f"{out}: 2 pictures\n"
    assert sorted(p.name for p in out.iterdir()) == ["issue-4x4.svg", "typo.svg"]
    assert classes((out / "typo.svg").read_text())["conflict"] == 1
    assert "well-formed: exactly one solution" in texts((out / "issue-4x4.svg").read_text())


def test_format_html_is_one_self_contained_page_of_everything_printed(tmp_path):
    done = run(["hint", "examples/crossproduct/riddler-1.txt", "docs/examples/typo.txt",
                "--format", "html"])
    page = done.stdout
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 2
    assert "<script" not in page and not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert "# hint - fillings rule out digits in row 1 (135)" in page
    assert "no solution, so no hint: row 5 (71) is likely mistyped" in page
    target = tmp_path / "hint.html"
    assert run(["hint", "examples/crossproduct/riddler-1.txt", "--format", "html", "--out",
                str(target)]).stdout == f"{target}: a page of 1 puzzle\n"
    assert target.read_text().count("<svg") == 1


def test_count_draws_no_picture():
    done = run(["count", "examples/kenken/issue-4x4.txt", "--format", "svg"])
    assert done.returncode == 2 and "invalid choice: 'svg'" in done.stderr


def test_generate_format_html_is_a_book_of_puzzles_then_solutions_four_to_a_sheet():
    done = run(["generate", "kenken", "--rows", "4", "--cols", "4", "-n", "5", "--seed", "3",
                "--well-formed", "--format", "html"])
    page = done.stdout
    sheets = re.findall(r'<div class="sheet">(.*?)</div>', page)
    assert [sheet.count("<svg") for sheet in sheets] == [4, 1, 4, 1]
    assert page.index("Solutions") > page.index(sheets[1])
    assert "break-before: page" in page and "@page" in page


def test_generate_format_svg_with_solutions_writes_a_file_each(tmp_path):
    done = run(["generate", "sudoku", "-n", "2", "--seed", "1", "--with-solutions", "--format", "svg",
                "--out", str(tmp_path)])
    assert done.stdout == f"{tmp_path}: 4 pictures\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1-solved.svg", "1.svg", "2-solved.svg",
                                                          "2.svg"]
    solved = texts((tmp_path / "1-solved.svg").read_text())
    assert sorted(Counter(solved).values()) == [9] * 9


def test_generate_format_svg_says_which_pictures_of_an_earlier_run_it_left(tmp_path):
    """A smaller run into the directory of a larger one: 2.svg would read as this run's."""
    command = ["generate", "kenken", "--rows", "4", "--cols", "4", "--seed", "1", "--format", "svg",
               "--out", str(tmp_path)]
    assert run(command + ["-n", "2", "--with-solutions"]).stderr == ""
    (tmp_path / "notes.svg").write_text("<svg/>")  # not named as generate names its pictures
    done = run(command + ["-n", "1"])
    assert done.returncode == 0 and done.stdout == f"{tmp_path}: 1 picture\n"
    assert done.stderr == (f"crossprolog: {tmp_path} also holds 3 pictures of an earlier run, left as they "
                        "were: 1-solved.svg, 2.svg, 2-solved.svg\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1-solved.svg", "1.svg", "2-solved.svg", "2.svg",
                                                          "notes.svg"]


def test_generate_out_writes_the_text_it_would_print(tmp_path):
    target = tmp_path / "made.txt"
    printed = run(["generate", "crossproduct", "--rows", "3", "--cols", "3", "-n", "2", "--seed", "1"])
    assert run(["generate", "crossproduct", "--rows", "3", "--cols", "3", "-n", "2", "--seed", "1",
                "--out", str(target)]).stdout == ""
    assert target.read_text() == printed.stdout


def test_the_book_api_leaves_out_a_solution_that_is_none():
    puzzle = form("kenken-letters")
    page = pictures.book([puzzle, puzzle], [puzzle.solve(), None], title="Two")
    assert page.count("<svg") == 3 and "<title>Two</title>" in page


# Python and Jupyter


def test_puzzles_solutions_and_ambiguities_show_as_pictures_in_jupyter_keeping_markdown():
    puzzle = form("kenken-letters")
    solution = puzzle.solve()
    for thing in (puzzle, solution):
        assert texts(thing._repr_svg_()) and thing._repr_html_() == thing._repr_svg_()
        assert thing._repr_markdown_().startswith("```")
    assert texts(pictures.picture(puzzle, puzzle.hint())._repr_html_())


def test_a_search_draws_its_first_solution_and_nothing_else_is_drawn():
    puzzle = form("kenken-letters")
    found = puzzle.search(limit=1)
    assert pictures.svg(found) == pictures.svg(found.solutions[0])
    with pytest.raises(crossprolog.InvalidValue, match="no picture of str"):
        pictures.svg("a puzzle")
    with pytest.raises(crossprolog.InvalidValue, match="nothing to draw of int"):
        pictures.svg(puzzle, 3)


def test_a_hint_of_another_puzzle_is_refused_not_drawn_into_this_grid():
    """A Solution of another puzzle was refused, but a Hint was drawn in: the KenKen's
    hinted 2 at r1c3 of the Riddler's grid, whose digit there is 5."""
    riddler = crossprolog.parse((EXAMPLES / "crossproduct" / "riddler-1.txt").read_text())
    kenken = crossprolog.parse((EXAMPLES / "kenken" / "issue-4x4.txt").read_text())
    for puzzle, hint in ((riddler, kenken.hint()), (kenken, riddler.hint())):
        with pytest.raises(crossprolog.InvalidValue, match="not of this"):
            pictures.svg(puzzle, hint)
    hint = kenken.hint()
    (cell,) = [forced.cell for forced in hint.cells]
    with pytest.raises(crossprolog.InvalidValue, match="not of this"):  # that cell is no longer open
        pictures.svg(kenken.placing({cell: hint.cells[0].value}), hint)
    assert f">{hint.cells[0].value}</text>" in pictures.svg(kenken, hint)


# The documentation's pictures


def test_the_pictures_of_the_documentation_are_fresh(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "pictures"), str(tmp_path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    committed = ROOT / "docs" / "pictures"
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted(p.name for p in committed.glob("*.svg"))
    stale = [name for name in made if (tmp_path / name).read_text() != (committed / name).read_text()]
    assert not stale, f"run scripts/pictures: {stale} are stale"


def test_the_readme_shows_a_picture_of_each_family():
    readme = (ROOT / "README.md").read_text()
    for name in ("crossproduct", "crosscells", "sumplete", "number-sums", "sudoku", "kenken"):
        assert f"docs/pictures/{name}.svg" in readme, name


def test_mark_styles_name_every_mark():
    assert set(svg_backend.MARK_STYLE) == set(MARKS)
    json.dumps(svg_backend.MARK_STYLE)


def test_bad_input_gets_its_located_error_and_no_picture(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("3000 3969 640\n? ? ? 135\n? x ? 45\n")
    done = run(["solve", str(bad), "--format", "svg"])
    assert done.returncode == 2 and done.stdout == "" and "Traceback" not in done.stderr
    assert done.stderr.startswith(f"{bad}:3:3: error: expected a digit")
    page = run(["solve", str(bad), "examples/kenken/issue-4x4.txt", "--format", "html"])
    assert page.returncode == 2 and page.stdout.count("<svg") == 1
    assert "3:3: error: expected a digit" in page.stdout  # on the page, where it happened


def test_an_out_that_cannot_be_a_directory_is_refused_before_any_work(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("")
    said = (f"crossprolog: error: --out {taken} is not a directory: --format svg writes a picture a "
            "puzzle into one (--format html writes one file)\n")
    for command in (["solve", "examples/kenken/issue-4x4.txt"], ["generate", "sudoku", "--seed", "1"]):
        done = run([*command, "--format", "svg", "--out", str(taken)])
        assert (done.returncode, done.stdout, done.stderr) == (2, "", said)  # not "File exists"
    done = run(["generate", "sudoku", "--seed", "1", "--format", "svg", "--out", str(taken / "below")])
    assert done.returncode == 2 and done.stderr == f"crossprolog: error: cannot make the directory {taken / 'below'}: Not a directory\n"


def test_a_family_that_draws_no_scene_says_so(monkeypatch):
    from crossprolog.puzzle import Puzzle

    puzzle = form("kenken-letters")
    monkeypatch.setattr(type(puzzle), "drawn_scene", Puzzle.drawn_scene)
    with pytest.raises(crossprolog.UsageError, match="the kenken family draws no pictures yet"):
        pictures.svg(puzzle)


@pytest.mark.parametrize("paper, size", [("a4", (595, 842)), ("letter", (612, 792))])
def test_generate_format_pdf_is_the_book_on_a4_or_letter(tmp_path, paper, size):
    pypdf = pytest.importorskip("pypdf")
    target = tmp_path / "book.pdf"
    done = run(["generate", "sudoku", "-n", "5", "--seed", "2", "--well-formed", "--format", "pdf",
                "--out", str(target), "--paper", paper])
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"{target}: a book of 5 puzzles, {'A4' if paper == 'a4' else 'Letter'}\n"
    book = pypdf.PdfReader(target)
    assert len(book.pages) == 4  # four puzzles, one; four solutions, one
    assert all(tuple(round(float(v)) for v in page.mediabox[2:]) == size for page in book.pages)
    first, answers = book.pages[0].extract_text(), book.pages[2].extract_text()
    assert first.startswith("5 Sudoku puzzles, well-formed") and answers.startswith("Solutions")
    solved = [line.split() for line in answers.splitlines()[1:10]]
    assert all(sorted(row) == list("123456789") for row in solved)  # the first solution's rows


def test_a_pdf_needs_a_file_to_go_to():
    done = run(["generate", "sudoku", "-n", "1", "--format", "pdf"])
    assert done.returncode == 2
    assert done.stderr == "crossprolog: error: --format pdf writes a file: name it with --out FILE.pdf\n"
