"""Properties of the CrossCells grammar over random and mutated layouts."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crossprolog
from crossprolog import ParseError
from crossprolog.crosscells import CrossCells, random_puzzles
from crossprolog.registry import family_of
from conftest import EXAMPLES

CELLS = ["+1", "-2", "*3", "x2", "×4", "/2", "+12a", "*2b", "-3a"]
CONSTRAINTS = ["=3", "=-4", "#1", "#0", "a#2", "b=5"]
MISTAKES = ["/0", "c#1", "#", "# note", "=", "+", "a", "?", "**5**", "```", "|", "+1=2"]
SPACES = st.sampled_from([" ", "  ", "   ", "\t"])


@st.composite
def layouts(draw) -> str:
    """Lines of cells with constraints at their ends, or of constraints alone,
    ragged spacing, and now and then a mistake."""
    lines = []
    for _ in range(draw(st.integers(1, 6))):
        cells = draw(st.lists(st.sampled_from(CELLS), min_size=draw(st.sampled_from([0, 1, 1])),
                              max_size=6))
        ends = st.lists(st.sampled_from(CONSTRAINTS), max_size=1)
        tokens = draw(ends) + cells + draw(ends)
        if tokens and draw(st.integers(0, 7)) == 0:
            tokens[draw(st.integers(0, len(tokens) - 1))] = draw(st.sampled_from(MISTAKES))
        line = draw(st.sampled_from(["", " ", "    "]))
        for token in tokens:
            line += token + draw(SPACES)
        lines.append(line.rstrip())
    return "\n".join(lines)


@st.composite
def mutated_examples(draw) -> str:
    """A shipped example with a few characters replaced, inserted or deleted."""
    text = draw(st.sampled_from(sorted((EXAMPLES / "crosscells").glob("*.txt")))).read_text()
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(text)))
        change = draw(st.sampled_from(["replace", "insert", "delete"]))
        char = draw(st.sampled_from(list(" \t\n+-*/x=#a0123456789?|")) | st.characters())
        if change == "insert":
            text = text[:at] + char + text[at:]
        else:
            text = text[:at] + (char if change == "replace" else "") + text[at + 1:]
    return text


def round_trips(text: str) -> None:
    """Parsing gives a CrossCells or a ParseError; a puzzle parses back from its drawings."""
    try:
        puzzle = crossprolog.parse(text, family="crosscells")
    except ParseError as error:
        assert error.line >= 1 and error.column >= 1
        return
    assert isinstance(puzzle, CrossCells)
    assert family_of(text) == "crosscells"
    for format in ("text", "markdown"):
        assert crossprolog.parse(puzzle.render(format=format), family="crosscells") == puzzle


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(layouts())
def test_random_layouts_parse_or_fail_cleanly_and_round_trip(text):
    round_trips(text)


@settings(max_examples=300, deadline=None)
@given(mutated_examples())
def test_mutated_examples_parse_or_fail_cleanly_and_round_trip(text):
    round_trips(text)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.integers(0, 2 ** 32))
def test_generated_puzzles_round_trip(rows, cols, seed):
    [puzzle] = random_puzzles(rows, cols, 1, seed=seed)
    assert crossprolog.parse(puzzle.render()) == puzzle
