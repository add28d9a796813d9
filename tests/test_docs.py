"""Every command the documentation shows runs as written, from the repository root, and
prints what the documentation says it prints; the pages build as a site with MkDocs in
strict mode, and every link of the README leads somewhere.

A fenced block whose first line starts with `$ ` is a session: each `$ COMMAND`
line (continued by a trailing backslash) is run by bash, and the lines up to the
next `$ ` line are its output (standard output and error, as a terminal shows
them).  A line `...` (or `…`) stands for any lines; decimal numbers (timings,
also as `5.1e-05` or `6e-05`) and numbers with thousands separators (inferences) match any
such number, and runs of blanks match any run of blanks.  Commands run in a
scratch directory that sees the repository's `examples/` and `docs/` (and the
virtualenv running the tests as `.venv/`), with `crossprolog` and the project's
`swipl` on the PATH, so files they write go nowhere.  A fence may be indented (a
block in a list item); its lines are read without that indentation.  A block
right after a line `<!-- not run -->` is not run.

A fenced block whose first line starts with `>>> ` is a Python session, run by doctest
in the same scratch directory (`...` stands for any text, blanks are blanks).
"""

from __future__ import annotations

import doctest
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "docs" / "examples"  # puzzles the pages use, not pages
PAGES = [ROOT / "README.md",
         *sorted(page for page in (ROOT / "docs").rglob("*.md") if EXAMPLES not in page.parents)]
# timings (5.1e-05 too), and counts of inferences
NUMBER = re.compile(r"\d+(?:\.\d+)?e[-+]?\d+|\d+\.\d+|\d{1,3}(?:,\d{3})+")
FENCE = re.compile(r"^(\s*)```")
ANY_LINES = ("...", "…")
NOT_RUN = "<!-- not run -->"


@dataclass(frozen=True)
class Example:
    page: str
    line: int
    command: str
    output: tuple[str, ...]


def blocks(path: Path):
    """The fenced blocks of the page at `path` that are run: (line of their first line,
    their lines), the fences' indentation taken off."""
    lines = path.read_text(encoding="utf-8").splitlines()
    n, skip = 0, False
    while n < len(lines):
        if lines[n].strip() == NOT_RUN:
            skip = True
        fence = FENCE.match(lines[n])
        if fence:
            indent = fence.group(1)
            end = next(k for k in range(n + 1, len(lines)) if lines[k].startswith(indent + "```"))
            block = [line.removeprefix(indent) for line in lines[n + 1:end]]
            if block and not skip:
                yield n + 2, block
            skip, n = False, end
        n += 1


def sessions(path: Path) -> list[list[Example]]:
    """The sessions of the page at `path`, each a list of its commands in order."""
    return [list(examples(path, first, block)) for first, block in blocks(path)
            if block[0].startswith("$ ")]


def examples(path: Path, first: int, block: list[str]):
    """The commands of one block and the output shown under each."""
    k = 0
    while k < len(block):
        line, command = first + k, block[k][2:]
        while command.endswith("\\"):
            k += 1
            command += "\n" + block[k]
        k += 1
        output = []
        while k < len(block) and not block[k].startswith("$ "):
            output.append(block[k])
            k += 1
        yield Example(str(path.relative_to(ROOT)), line, command, tuple(output))


def matches(expected: tuple[str, ...], actual: list[str]) -> bool:
    """Whether `actual` lines are what `expected` shows, `...` standing for any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head in ANY_LINES:
        return any(matches(rest, actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and same(head, actual[0]) and matches(rest, actual[1:])


def same(expected: str, actual: str) -> bool:
    """Whether two lines say the same, timings and inference counts aside (and so the
    widths of the columns they stand in)."""
    return normal(expected) == normal(actual)


def normal(line: str) -> str:
    return " ".join(NUMBER.sub("#", line).split())


ALL = [session for page in PAGES for session in sessions(page)]
PYTHON = [(str(page.relative_to(ROOT)), first, "\n".join(block) + "\n")
          for page in PAGES for first, block in blocks(page) if block[0].startswith(">>> ")]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    where = tmp_path_factory.mktemp("docs")
    for name in ["examples", "docs"]:
        (where / name).symlink_to(ROOT / name)
    (where / ".venv").symlink_to(sys.prefix)
    return where


@pytest.fixture(scope="module")
def environment() -> dict[str, str]:
    """crossprolog first on the PATH, and last the SWI-Prolog the project runs on (for the
    examples that run an exported program with `swipl FILE`)."""
    swipl = subprocess.run([str(ROOT / "scripts" / "provision-swipl")], capture_output=True,
                           text=True, timeout=600).stdout.strip()
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"], swipl])
    return {**os.environ, "PATH": path, "COLUMNS": "100", "NO_COLOR": "1"}


@pytest.mark.parametrize("session", ALL, ids=lambda s: f"{s[0].page}:{s[0].line}")
def test_documented_commands_print_what_the_documentation_shows(session, scratch, environment):
    for example in session:
        done = subprocess.run(["bash", "-c", example.command], cwd=scratch, env=environment,
                              capture_output=True, text=True, timeout=300)
        actual = (done.stdout + done.stderr).splitlines()
        assert "Traceback" not in done.stderr, f"{example.page}:{example.line}: {done.stderr}"
        assert matches(example.output, actual), (
            f"{example.page}:{example.line}: $ {example.command}\n"
            "--- shown ---\n" + "\n".join(example.output) + "\n--- printed ---\n" + "\n".join(actual))


@pytest.mark.parametrize("page, line, text", PYTHON, ids=[f"{p}:{n}" for p, n, _ in PYTHON])
def test_documented_python_sessions_print_what_the_documentation_shows(page, line, text, scratch,
                                                                       monkeypatch):
    monkeypatch.chdir(scratch)
    test = doctest.DocTestParser().get_doctest(text, {}, f"{page}:{line}", page, line - 1)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    report: list[str] = []
    runner.run(test, out=report.append)
    assert runner.failures == 0, "".join(report)


def test_the_pages_have_sessions():
    assert len(ALL) >= 20 and shutil.which("bash")


def test_the_pages_build_as_a_site_without_a_warning(tmp_path):
    """mkdocs.yml's strict mode makes every warning (a broken link or anchor, a page left
    out of the navigation) an error; no warning is printed either."""
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "WARNING" not in done.stderr, done.stderr
    assert (tmp_path / "site" / "index.html").is_file()


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def test_the_readme_links_lead_to_pages_and_headings_that_exist():
    """The README is not part of the site, so its links are checked here: each relative
    one names a file of the repository and, after `#`, a heading of that page."""
    from markdown.extensions.toc import slugify

    links = LINK.findall((ROOT / "README.md").read_text(encoding="utf-8"))
    assert links
    for link in links:
        if re.match(r"[a-z]+:", link):
            continue
        target, _, anchor = link.partition("#")
        page = ROOT / (target or "README.md")  # "#heading" is one of the README's own
        assert page.exists(), f"README.md links to {link}, which does not exist"
        if anchor:
            headings = re.findall(r"^#+ (.*)$", page.read_text(encoding="utf-8"), re.MULTILINE)
            assert anchor in {slugify(heading, "-") for heading in headings}, (
                f"README.md links to {link}, but {target} has no heading #{anchor}")
