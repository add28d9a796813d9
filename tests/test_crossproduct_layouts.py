"""Both CrossProduct layouts parse, and every solution is drawn the way its puzzle came."""

from __future__ import annotations

import pytest

import crossprolog
from crossprolog import CrossProduct, ParseError

PLAIN = """\
# Riddler puzzle 2
  6615 15552   420
     ?     ?     ?   210
     ?     ?     ?   144
     ?     ?     ?    54
     ?     ?     ?   135
     ?     ?     ?     4
     ?     ?     ?    49
"""

MARKDOWN = """\
| 6615 | 15552 |   420 | [6×3] |
|-------|-------|-------|---|
| ? | ? | ? |**210**|
| ? | ? | ? |**144**|
| ? | ? | ? |**54**|
| ? | ? | ? |**135**|
| ? | ? | ? |**4**|
| ? | ? | ? |**49**|
"""

RIDDLER_2 = CrossProduct((210, 144, 54, 135, 4, 49), (6615, 15552, 420))


def test_plain_and_markdown_layouts_give_the_same_puzzle():
    assert crossprolog.parse(PLAIN) == RIDDLER_2
    assert crossprolog.parse(MARKDOWN) == RIDDLER_2


def test_column_products_may_come_last():
    text = "? ? ? 210\n? ? ? 144\n? ? ? 54\n? ? ? 135\n? ? ? 4\n? ? ? 49\n6615 15552 420\n"
    puzzle = crossprolog.parse(text)
    assert puzzle == RIDDLER_2
    assert puzzle.solve().__str__().splitlines()[-1].split() == ["6615", "15552", "420"]


def test_a_solution_is_drawn_in_the_markdown_it_came_in():
    assert str(crossprolog.parse(MARKDOWN).solve()).splitlines()[:3] == [
        "|6615|15552|420|[6×3]|", "|---|---|---|---|", "|7|6|5|**210**|"]


def test_a_solution_is_drawn_in_plain_text_it_came_in():
    assert str(crossprolog.parse(PLAIN).solve()).splitlines()[:2] == [
        "6615 15552 420", "   7     6   5 210"]


def test_rendering_either_way_parses_back_to_the_same_puzzle():
    for format in ("text", "markdown"):
        assert crossprolog.parse(RIDDLER_2.render(format=format)) == RIDDLER_2


def test_given_digits_and_alignment_free_tokens():
    puzzle = crossprolog.parse("8 8 1\n2 ? ? 8\n? ? ? 8\n? ? ? 1\n")
    assert puzzle.givens[0] == (2, None, None)
    assert puzzle.well_formed()


def test_what_people_paste_is_accepted():
    pasted = "\ufeff| 6,615 | 15,552 | 420 |\r\n|---|---|---|\r\n|?|?|?|210 \r\n".replace("210 ", "**210**|")
    assert crossprolog.parse(pasted).column_products == (6615, 15552, 420)
    assert crossprolog.parse("6615\t15552\t420  \n?\t?\t?\t210\t\n").width == 3


def test_size_tag_accepts_x():
    assert crossprolog.parse("|7|7|[1x2]|\n|---|---|---|\n|?|?|**49**|\n").height == 1


def test_zero_option_allows_zero_digits():
    assert crossprolog.parse("0 6\n0 ? 0\n? ? 6\n", zero=True).solve() is not None


def error(text: str, **options) -> ParseError:
    with pytest.raises(ParseError) as caught:
        crossprolog.parse(text, **options)
    return caught.value


@pytest.mark.parametrize("text, line, column, words", [
    ("", 1, 1, "empty"),
    ("# only a comment\n", 1, 1, "empty"),
    ("6 8\n? ? 6\n? 8\n", 3, 3, "1 cell"),
    ("6 8\n? ? ? 6\n", 2, 5, "3 cells"),
    ("6 8\n? ? 6\n? ? ?\n", 3, 5, "product is a number"),
    ("6 8\n? ? 6\n? a 8\n", 3, 3, "found 'a'"),
    ("6 8\n? 12 6\n", 2, 3, "one digit"),
    ("6 8\n0 ? 6\n", 2, 1, "0 is not a digit"),
    ("6 0\n? ? 6\n", 1, 3, "product of 0"),
    ("6 -8\n? ? 6\n", 1, 3, "found '-8'"),
    ("|6|8|[2×2]|\n|---|---|---|\n|?|?|**6**|\n", 1, 6, "size tag says 2×2"),
    ("|6|8|\n|?|?|**6**|\n", 2, 1, "|---|"),
    ("|6|8|\n|---|---|\n|?|?|6 8|\n", 3, 6, "between bars, found '6 8'"),
    ("1 1 1\n", 1, 1, "no rows here"),
    ("|1|1|1|\n|---|---|---|\n", 1, 1, "no rows here"),
    ("6 8 [2×2]\n? ? 48\n", 1, 5, "the size tag says 2×2 but the table is 1×2"),
    ("6 8\n? ? 48 [2×2]\n? ? 1\n", 2, 8, "a size tag goes at the end of the line of column products"),
    ("|6| |\n|---|---|\n|?|?|48|\n", 1, 4, "a product is a number, not an empty cell"),
])
def test_bad_layouts_say_where_and_what(text, line, column, words):
    found = error(text)
    assert (found.line, found.column) == (line, column)
    assert words in found.message


def test_binary_and_huge_text_are_refused():
    assert "control character" in error("6 8\n? \x00 6\n").message
    assert "limited" in error("1 " * 600_000).message


def test_error_report_shows_the_line_and_a_caret():
    report = error("6 8\n? a 6\n").report("p.txt")
    assert report.splitlines() == ["p.txt:2:3: error: expected a digit, '?' or a product, found 'a' "
                                   "(read as CrossProduct: 1 of 2 lines are numbers and '?'; "
                                   "name the family with --family if it is another)",
                                   "? a 6", "  ^"]


# The ways people have a CrossProduct table

def test_the_plain_text_table_with_the_notebooks_size_tag():
    text = PLAIN.replace("420\n", "420  [6×3]\n")
    assert crossprolog.parse(text) == RIDDLER_2
    assert str(crossprolog.parse(text).solve()).splitlines()[0].split() == ["6615", "15552", "420", "[6×3]"]
    below = "? ? ? 210\n? ? ? 144\n? ? ? 54\n? ? ? 135\n? ? ? 4\n? ? ? 49\n6615 15552 420 [6x3]\n"
    assert crossprolog.parse(below) == RIDDLER_2 and crossprolog.parse(below).columns_below


@pytest.mark.parametrize("text", [
    "6615|15552|420|[6×3]\n---|---|---|---\n?|?|?|**210**\n?|?|?|**144**\n?|?|?|54\n?|?|?|135\n?|?|?|4\n?|?|?|49\n",
    "| 6615 | 15552 | 420 |\n|:---:|:--|--:|---|\n|?|?|?|210|\n|?|?|?|144|\n|?|?|?|54|\n|?|?|?|135|\n"
    "|?|?|?|4|\n|?|?|?|49|\n",
    "|6615|15552|420|[6×3]|\n|-|-|-|-|\n| | | |**210**|\n||||144|\n| |?| |54|\n|?|?|?|135|\n|?|?|?|4|\n"
    "|?|?|?|49|\n",
    "| 6615 | 15552 | 420 | |\n|---|---|---|---|\n|?|?|?|**210**|\n|?|?|?|144|\n|?|?|?|54|\n|?|?|?|135|\n"
    "|?|?|?|4|\n|?|?|?|49|\n",
], ids=["no-outer-bars", "alignment-colons", "empty-cells", "empty-corner"])
def test_markdown_tables_as_people_write_them(text):
    puzzle = crossprolog.parse(text)
    assert puzzle == RIDDLER_2 and puzzle.layout == "markdown"
    assert str(puzzle.solve()).splitlines()[2] == "|7|6|5|**210**|"
