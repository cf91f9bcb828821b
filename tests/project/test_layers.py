"""The layers point one way, with no import cycle and no import hidden in a function.

The engine (games.cribbage) <- games <- mail <- clock <- ratings <- ladders <- tournaments; accounts under
all of them; cribsite (settings, urls, the Celery app) on top. A lower layer that
needs a higher one to act sends a signal the higher one connects in its
AppConfig.ready().
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["games.cribbage", "accounts", "games", "mail", "clock", "ratings", "ladders", "tournaments", "cribsite"]
PACKAGES = ("accounts", "games", "mail", "clock", "ratings", "ladders", "tournaments", "cribsite")


def _modules():
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _layer(module):
    for index in range(len(LAYERS) - 1, -1, -1):
        name = LAYERS[index]
        if module == name or module.startswith(name + "."):
            # games.cribbage is its own layer below games
            if name == "games" and (module == "games.cribbage" or module.startswith("games.cribbage.")):
                return LAYERS.index("games.cribbage")
            return index
    return None


def _imports(module, path):
    """(imported module, line, inside a function?) for each import of a project module."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    found.append((alias.name, child.lineno, in_function))
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = module.split(".")
                    base = base if is_package else base[:-1]
                    base = base[: len(base) - (child.level - 1)]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module
                for alias in child.names:
                    found.append((f"{target}.{alias.name}", child.lineno, in_function))
            visit(child, inner)

    visit(tree, False)
    return found


def _graph():
    modules = dict(_modules())
    graph, hidden = {}, []
    for module, path in modules.items():
        edges = set()
        for target, line, in_function in _imports(module, path):
            # "from games import services" names a module; "from games.models import Game" a name
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if not target or target == module:
                continue
            edges.add(target)
            if in_function and not _may_defer(module, path):
                hidden.append(f"{module}:{line} imports {target} inside a function")
        graph[module] = edges
    return graph, hidden


def _may_defer(module, path):
    return module.endswith(".apps") or "management" in path.parts


def test_no_import_hides_in_a_function():
    _, hidden = _graph()
    assert hidden == []


def test_no_layer_imports_a_higher_one():
    graph, _ = _graph()
    upward = [
        f"{a} imports {b}"
        for a, targets in graph.items()
        for b in targets
        if _layer(a) is not None and _layer(b) is not None and _layer(b) > _layer(a)
    ]
    assert upward == []


def test_the_engine_imports_no_django():
    engine = [m for m in _graph()[0] if _layer(m) == 0]
    assert engine
    for module in engine:
        path = dict(_modules())[module]
        assert "django" not in {t.split(".")[0] for t, _, _ in _imports(module, path)}, module


def test_the_modules_form_no_cycle():
    graph, _ = _graph()
    cycle = _find_cycle(graph)
    assert cycle is None, " -> ".join(cycle)


def _find_cycle(graph):
    state = {}

    def walk(node, stack):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = walk(node, [])
            if found:
                return found
    return None


@pytest.mark.parametrize("graph, has_cycle", [({"a": {"b"}, "b": {"a"}}, True), ({"a": {"b"}, "b": set()}, False)])
def test_the_cycle_finder_finds_cycles(graph, has_cycle):
    assert (_find_cycle(graph) is not None) is has_cycle
