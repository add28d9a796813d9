"""The Prolog modules' own plunit tests (tests/prolog/test_*.pl), each run by plain swipl."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from test_encodings import swipl

PROLOG_TESTS = sorted((Path(__file__).resolve().parent / "prolog").glob("test_*.pl"))


@pytest.mark.parametrize("path", PROLOG_TESTS, ids=lambda path: path.name)
def test_plunit(path):
    done = subprocess.run([swipl(), "-g", "run_tests", "-t", "halt", str(path)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "tests passed" in done.stdout + done.stderr


BUNDLED = sorted((Path(__file__).resolve().parent.parent / "prolog").glob("*.pl"))


@pytest.mark.parametrize("path", BUNDLED, ids=lambda path: path.name)
def test_a_bundled_module_loads_without_a_warning(path):
    done = subprocess.run([swipl(), "-q", "-g", f"load_files('{path}', [imports([])])", "-t", "halt"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout + done.stderr == "", done.stdout + done.stderr


def test_no_two_modules_an_export_inlines_define_one_predicate():
    """An exported program inlines into the family's module every module of ours it
    loads, at any depth (the grid kernel's seven, restarts.pl): a predicate two of
    them define would clash there (the exported program warns, or runs the wrong one)."""
    goal = ("use_module(prolog/crossprolog, []), "
            "forall(member(F, [sudoku, kenken, killer_sudoku, kakuro, crossproduct, crosscells]), "
            "use_module(prolog/F, [])), "
            "forall(( member(F, [sudoku, kenken, killer_sudoku, kakuro, crossproduct, crosscells]), "
            "crossprolog:module_text(F, _, Inlined), "
            "select(M, [F|Inlined], Others), member(O, Others), M @< O, "
            "predicate_property(M:H, defined), \\+ predicate_property(M:H, imported_from(_)), "
            "functor(H, N, A), \\+ sub_atom(N, 0, _, _, '__aux'), "
            "predicate_property(O:H, defined), \\+ predicate_property(O:H, imported_from(_)) ), "
            "format('~w ~w and ~w: ~w/~w~n', [F, M, O, N, A]))")
    done = subprocess.run([swipl(), "-q", "-g", goal, "-t", "halt"], cwd=Path(__file__).resolve().parent.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "", done.stdout + done.stderr
