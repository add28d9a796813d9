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


OPTIMISED = [path.stem for path in BUNDLED if "set_prolog_flag(optimise, true)" in path.read_text()]


@pytest.mark.parametrize("suffix", ["", ".pl"], ids=["as loaded (QLF when compiled)", "from source"])
def test_optimised_modules_compile_maplist_to_loops_from_source_or_qlf(suffix):
    """A module that compiles its arithmetic (the kernel's, the fast encodings') also has
    its maplist/N made into loops (library(apply_macros); a closure known only when it
    runs stays a call of maplist), loaded alone, from source or from the QLF
    scripts/precompile makes a file a process.  Without its own import, a module had
    them only where something loaded before it had loaded CLP(FD) (which loads
    apply_macros): in a QLF compiled alone, grid_folds, grid_fillings and grid_geometry
    had none, and a 4x4 KenKen's check took 4-5% longer than from source."""
    unexpanded = []
    for name in OPTIMISED:
        goal = (f"use_module('prolog/{name}{suffix}', []), use_module(library(occurs)), "
                f"forall(( current_predicate({name}:N/A), functor(H, N, A), "
                f"\\+ predicate_property({name}:H, imported_from(_)), "
                f"\\+ predicate_property({name}:H, foreign), "
                f"catch(clause({name}:H, B), _, fail), sub_term(G, B), compound(G), "
                "compound_name_arity(G, maplist, _), arg(1, G, Closure), nonvar(Closure), "
                "Closure \\== call ), "
                f"format('{name}:~w/~w~n', [N, A])), halt")
        done = subprocess.run([swipl(), "-q", "-g", goal, "-t", "halt(1)"], capture_output=True, text=True,
                              timeout=120, cwd=Path(__file__).resolve().parent.parent)
        assert done.returncode == 0, done.stdout + done.stderr
        unexpanded += done.stdout.split()
    assert unexpanded == []
