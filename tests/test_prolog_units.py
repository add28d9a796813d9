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
