"""What a command loads: a start pays only for what the command uses (issue 23's start-up).

Start-up is timed by `make bench`, never here; these tests pin down what it owes
to loading less, which no machine's speed changes: a solve of a small puzzle
loads no other command's modules, no other paradigm's or family's, no hint
techniques, no picture code, and none of the libraries those bring (Dask and asyncio, sockets,
subprocesses, clingo).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

LOADED_BY = """
import contextlib, io, sys
from crossprolog.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
modules = sorted(sys.modules)  # before json, which only tells them
import json
print(json.dumps({"code": code, "modules": modules}))
"""

# What only other commands, paradigms or the server use.
ELSEWHERE = ("asyncio", "socket", "subprocess", "multiprocessing", "dask", "distributed", "clingo",
             "starlette", "uvicorn", "tqdm", "crossprolog.cluster", "crossprolog.dask_worker",
             "crossprolog.server", "crossprolog.studies", "crossprolog.cli.tools", "crossprolog.cli.generating",
             "crossprolog.cli.serve",
             "crossprolog.compare", "crossprolog.compare_report", "csv",
             "crossprolog.paradigms.asp", "crossprolog.paradigms.minizinc",
             # a person's techniques and the typo finder: for hints, grades and puzzles without solution
             "crossprolog.solving", "crossprolog.techniques", "crossprolog.hard_techniques",
             "crossprolog.forcing", "crossprolog.blame",
             # pictures (--format svg or html, notebooks): a solve printing text draws none
             "crossprolog.pictures", "crossprolog.backends.svg", "crossprolog.backends.html")
OTHER_FAMILIES = ("crosscells", "kenken", "sudoku", "killer_sudoku", "kakuro")
# What only JSON output uses (--format json, --out, a usage error asked for in JSON).
JSON_ONLY = ("json",)


def loaded_by(*argv: str) -> tuple[int, set[str]]:
    """The exit code of the command `argv`, run in a fresh Python, and the modules it loaded."""
    out = subprocess.run([sys.executable, "-c", LOADED_BY, *argv], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    result = json.loads(out.splitlines()[-1])
    return result["code"], set(result["modules"])


def test_a_solve_loads_neither_other_commands_nor_other_paradigms():
    code, modules = loaded_by("solve", "examples/crossproduct/riddler-1.txt")
    assert code == 0
    assert "crossprolog.cli.questions" in modules  # the test sees what a solve loads
    assert {name for name in modules if name.split(".")[0] in ELSEWHERE or name in ELSEWHERE} == set()


def test_a_solve_printing_text_loads_nothing_for_json():
    code, modules = loaded_by("solve", "examples/crossproduct/riddler-1.txt")
    assert code == 0
    assert {name for name in modules if name.split(".")[0] in JSON_ONLY} == set()


def test_a_solve_loads_only_its_own_family():
    code, modules = loaded_by("solve", "examples/crossproduct/riddler-1.txt")
    assert code == 0
    assert "crossprolog.grammars.crossproduct" in modules
    assert {name for name in modules for family in OTHER_FAMILIES
            if name in (f"crossprolog.{family}", f"crossprolog.grammars.{family}")} == set()


def test_each_command_is_loaded_when_it_runs():
    code, modules = loaded_by("count", "examples/kenken/issue-4x4.txt")
    assert code == 0
    assert "crossprolog.cli.questions" in modules and "crossprolog.cli.tools" not in modules
    code, modules = loaded_by("export", "examples/kenken/issue-4x4.txt")
    assert code == 0
    assert "crossprolog.cli.tools" in modules and "crossprolog.cli.questions" not in modules
