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
