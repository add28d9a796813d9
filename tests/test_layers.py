"""The package's modules import each other in layers: no circle, and no import hidden
inside a function to break one (an import inside a function is there to start faster:
a command loads what it uses)."""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "crossprolog"
MODULES = {".".join(path.relative_to(PACKAGE).with_suffix("").parts).removesuffix(".__init__"): path
           for path in [*PACKAGE.glob("*.py"), *PACKAGE.glob("cli/*.py"), *PACKAGE.glob("paradigms/*.py"),
                        *PACKAGE.glob("backends/*.py"), *PACKAGE.glob("server/*.py")]}


def target(module: str, node: ast.ImportFrom) -> list[str]:
    """The package's modules a relative import in `module` names."""
    package = module.split(".") if MODULES[module].name == "__init__.py" else module.split(".")[:-1]
    base = package[:len(package) - (node.level - 1)]
    stem = base + (node.module.split(".") if node.module else [])
    names = [".".join(stem)] if node.module else [".".join(stem + [a.name]) for a in node.names]
    return [name for name in names if name in MODULES]


def imported(module: str) -> tuple[set[str], set[str]]:
    """The package's modules `module` imports at its top level (TYPE_CHECKING blocks
    included), and those it imports inside functions."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    inner_nodes = {id(node) for function in ast.walk(tree)
                   if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                   for node in ast.walk(function)}
    top, inner = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level > 0:
            (inner if id(node) in inner_nodes else top).update(target(module, node))
    return top - {module}, inner


def test_no_import_circle():
    graph = {module: imported(module)[0] for module in MODULES}
    try:
        order = list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        raise AssertionError(f"import circle: {' -> '.join(error.args[1])}") from None
    layers = ["engine", "searches", "puzzle", "explain", "registry", "cli"]

    def reaches(module: str, target: str) -> bool:
        return module == target or any(reaches(m, target) for m in graph.get(module, ()))

    assert not any(reaches(lower, upper) for k, lower in enumerate(layers) for upper in layers[k + 1:])
    assert order.index("engine") < order.index("searches") < order.index("puzzle") < order.index("reasoner") < order.index("diagnosis") \
        < order.index("explain")
    assert graph["cli.report"] == set() and "cli" not in {m for deps in graph.values() for m in deps
                                                          if deps is not graph["cli"]}


def test_no_import_inside_a_function_of_a_lower_layer_hides_a_circle():
    lower = ["answers", "diagnosis", "engine", "explain", "families", "family", "puzzle", "reasoner",
             "registry", "searches"]
    graph = {module: imported(module)[0] | (imported(module)[1] if module in lower else set())
             for module in MODULES}
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        raise AssertionError(f"an import inside a function hides the circle "
                             f"{' -> '.join(error.args[1])}") from None


def test_no_module_of_the_command_line_or_the_paradigms_is_over_about_400_lines():
    for module, path in MODULES.items():
        if module.startswith(("cli", "paradigms")):
            assert len(path.read_text(encoding="utf-8").splitlines()) <= 400, module
