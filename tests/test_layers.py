"""The package's modules import each other in layers: no circle, and no import hidden
inside a function to break one."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "crossprolog"


def imported(path: Path) -> tuple[set[str], set[str]]:
    """The crossprolog modules `path` imports at its top level (TYPE_CHECKING blocks
    included), and those it imports inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    top, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            names = {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
            inside = any(isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef))
                         and node in ast.walk(parent) for parent in ast.walk(tree))
            (inner if inside else top).update(name for name in names
                                               if (PACKAGE / f"{name}.py").exists())
    return top, inner


def test_no_import_circle():
    graph = {path.stem: imported(path)[0] for path in PACKAGE.glob("*.py")}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"import circle: {' -> '.join(error.args[1])}") from None
    assert order.index("engine") < order.index("puzzle") < order.index("explain") < order.index("registry")


def test_the_lower_layers_import_nothing_above_them_inside_functions():
    for name in ["answers", "engine", "explain", "families", "family", "puzzle", "registry"]:
        assert imported(PACKAGE / f"{name}.py")[1] == set(), name
