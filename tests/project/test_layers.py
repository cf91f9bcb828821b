"""The layers point one way, with no import cycle and no import hidden in a function.

The engine (games.cribbage) <- games <- mail <- clock <- ratings <- events <- ladders, tournaments;
accounts under all of them; the two event apps side by side, neither importing the other (what both
need is in events); cribsite (settings, urls, the Celery app) on top. A lower layer that
needs a higher one to act sends a signal the higher one connects in its
AppConfig.ready().

Inside the engine: the rules (the package root) <- strategy <- coach <- tables (the
generators of data/), and nothing outside tables imports a generator. No module imports
another's private name (a leading underscore): a name shared is given a public home.
"""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = [
    "games.cribbage",
    "accounts",
    "games",
    "mail",
    "clock",
    "ratings",
    "events",
    "ladders",
    "tournaments",
    "cribsite",
]
PACKAGES = ("accounts", "games", "mail", "clock", "ratings", "events", "ladders", "tournaments", "cribsite")


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
    return _imports_in(module, ast.parse(path.read_text(), filename=str(path)), path.name == "__init__.py")


def _imports_in(module, tree, is_package):
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


# Side by side in one layer: neither may import the other.
SIBLINGS = [("ladders", "tournaments")]


def _crossings(graph):
    return [
        f"{a} imports {b}"
        for a, targets in graph.items()
        for b in targets
        for one, other in SIBLINGS
        for x, y in ((one, other), (other, one))
        if (a == x or a.startswith(x + ".")) and (b == y or b.startswith(y + "."))
    ]


def test_no_event_app_imports_another():
    graph, _ = _graph()
    assert _crossings(graph) == []


def test_the_sibling_rule_catches_an_event_app_importing_another():
    assert _crossings({"tournaments.admin": {"ladders.scoped_admin"}}) == [
        "tournaments.admin imports ladders.scoped_admin"
    ]


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


# --- Inside the engine ----------------------------------------------------------------

ENGINE = "games.cribbage"
#: The engine's layers, lowest first: the rules are the package root.
ENGINE_LAYERS = (ENGINE, f"{ENGINE}.strategy", f"{ENGINE}.coach", f"{ENGINE}.tables")
GENERATORS = f"{ENGINE}.tables"


def _sources():
    return {module: (path.read_text(), path.name == "__init__.py") for module, path in _modules()}


def _engine_layer(module):
    if module != ENGINE and not module.startswith(ENGINE + "."):
        return None
    return max(i for i, name in enumerate(ENGINE_LAYERS) if module == name or module.startswith(name + "."))


def _edges(sources):
    """(importer, imported module, the name imported or None, line) for each project import."""
    for module, (text, is_package) in sources.items():
        for target, line, _ in _imports_in(module, ast.parse(text), is_package):
            name = None
            while target and target not in sources:
                target, _, name = target.rpartition(".")
            if target and target != module:
                yield module, target, name, line


def engine_upward(sources):
    """Imports inside the engine that point up its layers (rules <- strategy <- coach <- tables)."""
    return [
        f"{a}:{line} imports {b}"
        for a, b, _, line in _edges(sources)
        if _engine_layer(a) is not None and _engine_layer(b) is not None and _engine_layer(b) > _engine_layer(a)
    ]


def generator_imports(sources):
    """Imports of a table generator from anywhere but the generators themselves."""
    inside = lambda m: m == GENERATORS or m.startswith(GENERATORS + ".")  # noqa: E731
    return [f"{a}:{line} imports {b}" for a, b, _, line in _edges(sources) if inside(b) and not inside(a)]


def _private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_names(sources):
    """Private names reaching across modules: ``from m import _x``, or ``m._x`` on an imported module."""
    found = [f"{a}:{line} imports {b}.{name}" for a, b, name, line in _edges(sources) if name and _private(name)]
    for module, (text, is_package) in sources.items():
        tree = ast.parse(text)
        bound = {}  # local name -> the project module it stands for
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in sources:
                        bound[alias.asname or alias.name.partition(".")[0]] = alias.name
            elif isinstance(node, ast.ImportFrom):
                for target, _, _ in _imports_in(module, ast.Module(body=[node], type_ignores=[]), is_package):
                    if target in sources:
                        alias = next(a for a in node.names if target.endswith("." + a.name))
                        bound[alias.asname or alias.name] = target
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in bound
                and bound[node.value.id] != module
                and _private(node.attr)
            ):
                found.append(f"{module}:{node.lineno} uses {bound[node.value.id]}.{node.attr}")
    return found


#: The rules' core: the state, the moves it allows, and the engine that applies them (its
#: handlers: the hand's events, a seat's own, the board, the checks before them).
RULES_CORE = tuple(
    f"{ENGINE}.{m}" for m in ("state", "moves", "engine", "hand_events", "plan_events", "scoreboard", "event_checks")
)
#: What reads a player's words and the typed move built on it: above the rules' core.
WORDS_READERS = (f"{ENGINE}.notation", f"{ENGINE}.move")


def _reachable(graph, start):
    seen, todo = set(), [start]
    while todo:
        for nxt in graph.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def words_read_by_the_rules(graph):
    """The readers of words that the rules' core reaches: none, or notation and move (which
    import the state) would close a cycle the moment either is needed by the rules."""
    core = [m for m in graph if m in RULES_CORE or any(m.startswith(c + ".") for c in RULES_CORE)]
    return sorted(f"{m} reaches {r}" for m in core for r in _reachable(graph, m) if r in WORDS_READERS)


def test_the_rules_say_a_move_without_the_reader_of_words():
    graph, _ = _graph()
    assert [m for m in RULES_CORE if m in graph or any(g.startswith(m + ".") for g in graph)] == list(RULES_CORE)
    assert words_read_by_the_rules(graph) == []


def test_a_rule_reaching_the_reader_of_words_is_caught():
    graph = {f"{ENGINE}.state": {f"{ENGINE}.plans"}, f"{ENGINE}.plans": {f"{ENGINE}.notation"}}
    assert words_read_by_the_rules(graph) == [f"{ENGINE}.state reaches {ENGINE}.notation"]


def test_the_engine_layers_point_down():
    assert engine_upward(_sources()) == []


def test_only_the_generators_import_a_generator():
    assert generator_imports(_sources()) == []


def test_no_private_name_crosses_a_module():
    assert private_names(_sources()) == []


RULE = "games.cribbage.scoring"
STRATEGY = "games.cribbage.strategy.players"
COACH = "games.cribbage.coach.luck"
GENERATOR = "games.cribbage.tables.peg_table"
GAMES = "games.computer"


def _synthetic(importer, text):
    """The five modules above, empty but for ``importer``, which holds ``text``."""
    sources = {m: ("", False) for m in (RULE, STRATEGY, COACH, GENERATOR, GAMES)}
    sources.update({"games.cribbage.strategy": ("", True), "games.cribbage": ("", True)})
    sources[importer] = (text, False)
    return sources


@pytest.mark.parametrize(
    "importer, text",
    [
        (RULE, "from games.cribbage.strategy.players import choose_move"),
        (RULE, "from .coach import luck"),
        (RULE, "from games.cribbage.strategy import players"),
        (STRATEGY, "from ..coach.luck import luck_and_skill"),
        (STRATEGY, "import games.cribbage.tables.peg_table"),
        (COACH, "from games.cribbage.tables.peg_table import generate"),
    ],
)
def test_an_engine_import_up_its_layers_is_caught(importer, text):
    assert engine_upward(_synthetic(importer, text)) != []


@pytest.mark.parametrize(
    "importer, text",
    [
        (STRATEGY, "from games.cribbage.scoring import score_hand"),
        (COACH, "from ..strategy.players import choose_move"),
        (GENERATOR, "from ..strategy.players import choose_move\nfrom ..coach.luck import luck_and_skill"),
    ],
)
def test_an_engine_import_down_its_layers_passes(importer, text):
    assert engine_upward(_synthetic(importer, text)) == []


@pytest.mark.parametrize(
    "importer, text, caught",
    [
        (GAMES, "from games.cribbage.tables.peg_table import generate", True),
        (STRATEGY, "from games.cribbage.tables import peg_table", True),
        (GENERATOR, "from games.cribbage.strategy.players import choose_move", False),
    ],
)
def test_a_generator_imported_outside_the_generators_is_caught(importer, text, caught):
    assert (generator_imports(_synthetic(importer, text)) != []) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("from games.cribbage.strategy.players import _alone", True),
        ("from .strategy.players import choose_move, _side", True),
        ("from games.cribbage.strategy import players\nplayers._alone(1)", True),
        ("import games.cribbage.strategy.players as p\np._side", True),
        ("from games.cribbage.strategy.players import choose_move\nchoose_move.__doc__", False),
        ("from games.cribbage.strategy import players\nplayers.__name__", False),
    ],
)
def test_a_private_name_across_modules_is_caught(text, caught):
    assert (private_names(_synthetic(RULE, text)) != []) is caught


EVENT_MODULES = (
    "tournaments.admin",
    "tournaments.entries",
    "tournaments.services",
    "ladders.membership",
    "ladders.scoped_admin",
    "events.entrants",
)


def _event_sources(importer, text):
    """The event apps' modules above, empty but for ``importer``, which holds ``text``."""
    sources = {m: ("", False) for m in EVENT_MODULES}
    sources.update({package: ("", True) for package in ("tournaments", "ladders", "events")})
    sources[importer] = (text, False)
    return sources


def _graph_of(sources):
    graph = {}
    for a, b, _, _ in _edges(sources):
        graph.setdefault(a, set()).add(b)
    return graph


@pytest.mark.parametrize(
    "importer, text, caught",
    [
        ("tournaments.admin", "from ladders.membership import parse_emails", True),
        ("tournaments.admin", "from ladders import scoped_admin", True),
        ("tournaments.admin", "import ladders.scoped_admin", True),
        ("ladders.membership", "from tournaments.entries import register", True),
        ("tournaments.admin", "from events.entrants import parse_emails", False),
        ("tournaments.admin", "from .entries import register", False),
    ],
)
def test_an_event_app_importing_another_is_caught_from_its_source(importer, text, caught):
    assert (_crossings(_graph_of(_event_sources(importer, text))) != []) is caught


@pytest.mark.parametrize(
    "text, caught",
    [
        ("from .services import _finish", True),
        ("from tournaments.services import lock, _finish", True),
        ("from . import services\nservices._finish(event)", True),
        ("from ladders import membership\nmembership._entrant", True),
        ("from .services import lock\nlock(event)", False),
        ("def _own(event):\n    return event\n_own(1)", False),
    ],
)
def test_a_private_name_across_event_modules_is_caught(text, caught):
    assert (private_names(_event_sources("tournaments.entries", text)) != []) is caught
