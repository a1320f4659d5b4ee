"""How the package is layered, read from the source (nothing is imported, so any module may be
checked without Flask): the referee stands alone, no two modules need each other, and the site
(``scorekeeper/web``) is rooms in layers that only look down, as its ``__init__`` declares.

Every import counts, those under ``if TYPE_CHECKING:`` too: a circle that only the type
checker follows is still a circle a reader has to untangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

from radon.complexity import cc_visit, sorted_results

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports by absolute name, with each ``from m import x`` as ``m.x``
    too (``x`` may be a submodule)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    paths = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    return {name: (_imports(path) & paths.keys()) - {name} for name, path in paths.items()}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each a path that comes back to where it started."""
    circles: list[list[str]] = []
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> None:
        for other in sorted(graph[name]):
            if other in path:
                circles.append([*path[path.index(other) :], other])
            elif other not in done:
                visit(other, [*path, other])
        done.add(name)

    for name in sorted(graph):
        if name not in done:
            visit(name, [name])
    return circles


def test_the_graph_sees_the_modules_and_their_imports() -> None:
    """The check below reads real imports (it would pass vacuously on an empty graph)."""
    graph = _graph()
    assert "scorekeeper.rules.game" in graph["scorekeeper.rules.record"]
    assert "scorekeeper.rules.setup" in graph["scorekeeper.rules.settlement"]
    assert "scorekeeper.web.data.games" in graph["scorekeeper.web.table.entries"]


def test_a_circle_is_found_when_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c", "a"]]


def test_no_module_imports_one_that_imports_it_back() -> None:
    """Setup has its own module, so the game and its settlement do not need each other."""
    assert _circles(_graph()) == []


ROOMS = "scorekeeper.rules.rooms"


def test_the_rooms_build_on_the_state_and_the_state_knows_no_room() -> None:
    """Each kind of entry is a room of its own (``rules/rooms``): a room reads and changes the
    game's state and leans on nothing but what the rooms share, so adding or changing one
    touches no other; the state, and everything the rooms stand on, knows none of them."""
    graph = _graph()
    rooms = {name for name in graph if name.startswith(ROOMS + ".")}
    assert {f"{ROOMS}.play", f"{ROOMS}.settle", f"{ROOMS}.shared"} <= rooms
    for room in rooms - {f"{ROOMS}.shared"}:
        assert "scorekeeper.rules.state" in graph[room], room
        assert graph[room] & (rooms | {ROOMS, "scorekeeper.rules.game"}) <= {f"{ROOMS}.shared"}, (
            room
        )
    below = {"scorekeeper.rules.state", *graph["scorekeeper.rules.state"]}
    for name in below:
        assert not {other for other in graph[name] if other.startswith(ROOMS)}, name
    assert ROOMS in graph["scorekeeper.rules.game"]


EXPLAIN = "scorekeeper.rules.explain"


def test_each_kind_of_entry_is_explained_on_its_own_and_the_referee_needs_no_explaining() -> None:
    """The explanations are split as the rooms are: one module a kind, leaning only on the
    phrases they share; the referee that judges the entries never imports how they are told."""
    graph = _graph()
    kinds = {name for name in graph if name.startswith(EXPLAIN + ".")} - {f"{EXPLAIN}.phrases"}
    assert {f"{EXPLAIN}.play", f"{EXPLAIN}.settle", f"{EXPLAIN}.lead"} <= kinds
    for kind in kinds:
        assert graph[kind] & (kinds | {EXPLAIN}) == set(), kind
    for name in {"scorekeeper.rules.game", "scorekeeper.rules.state"} | {
        name for name in graph if name.startswith(ROOMS)
    }:
        assert not any(other.startswith(EXPLAIN) for other in graph[name]), name


def test_the_referee_needs_no_web_framework_and_no_database() -> None:
    for path in (PACKAGE / "rules").rglob("*.py"):
        roots = {name.split(".")[0] for name in _imports(path)}
        assert not roots & {"flask", "sqlalchemy", "flask_sqlalchemy", "jinja2"}, path.name
        assert not any(name.startswith("scorekeeper.web") for name in _imports(path)), path.name


def test_the_table_view_does_not_reach_into_the_store() -> None:
    """What the table shows is derived from a loaded game; loading and storing it is not its
    business (the plain data both share is in web/data/loaded.py)."""
    table = _imports(PACKAGE / "web" / "table" / "view.py")
    assert "scorekeeper.web.data.games" not in table
    assert "scorekeeper.web.data.loaded" in table


# -- the site's rooms and layers ----------------------------------------------------------------

WEB = "scorekeeper.web"


def _declared(name: str) -> object:
    """A constant of ``scorekeeper/web/__init__.py``, read from its source."""
    tree = ast.parse((PACKAGE / "web" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
            name
        ]:
            return ast.literal_eval(node.value)
    raise LookupError(name)


LAYERS: tuple[tuple[str, ...], ...] = _declared("LAYERS")  # type: ignore[assignment]
AREAS: tuple[str, ...] = LAYERS[2]
SEAMS: tuple[str, ...] = _declared("SEAMS")  # type: ignore[assignment]
LAYER_OF = {room: floor for floor, rooms in enumerate(LAYERS) for room in rooms}


def _room(module: str) -> str | None:
    """The room of a module of the site (``scorekeeper.web.table.entries`` is in ``table``);
    None for a module outside the site, and for the site's own ``__init__``."""
    if not module.startswith(WEB + "."):
        return None
    return module.removeprefix(WEB + ".").split(".")[0]


def _breaches(graph: dict[str, set[str]]) -> list[str]:
    """Every import of ``graph`` that breaks the site's layer rule, said in a line."""
    found: list[str] = []
    for module, imported in sorted(graph.items()):
        room = _room(module)
        if room is None:
            continue
        for other in sorted(imported):
            there = _room(other)
            if there is None or there == room:
                continue
            if LAYER_OF[there] > LAYER_OF[room]:
                found.append(f"{module} imports {other}: {there} is above {room}")
            elif room in AREAS and there in AREAS and other not in SEAMS:
                found.append(f"{module} imports {other}: areas meet only through {SEAMS}")
    return found


def _rooms_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """The imports between the site's rooms (a room importing itself left out)."""
    rooms: dict[str, set[str]] = {room: set() for room in LAYER_OF}
    for module, imported in graph.items():
        room = _room(module)
        if room is not None:
            rooms[room] |= {_room(o) for o in imported if _room(o) not in (None, room)}  # type: ignore[misc]
    return rooms


def test_every_room_of_the_site_has_its_place_in_the_layers() -> None:
    rooms = {_room(name) for name in _graph()} - {None}
    assert rooms == set(LAYER_OF), "a room of scorekeeper/web missing from LAYERS, or gone"
    assert {"data", "table", "site"} <= rooms


def test_no_import_in_the_site_runs_back_up_or_between_areas() -> None:
    """Leaves, then data, then the areas (meeting only through the table's seam), then the
    site-wide concerns: every import looks down its own layer or below."""
    assert _breaches(_graph()) == []


def test_no_two_rooms_of_the_site_need_each_other() -> None:
    assert _circles(_rooms_graph(_graph())) == []


def test_the_layer_rule_sees_a_breach_when_there_is_one() -> None:
    """The checks above would pass on a rule that looked at nothing: these imports break it."""
    graph = {
        f"{WEB}.data.games": {f"{WEB}.table.view"},  # data reaching up into an area
        f"{WEB}.sharing": {f"{WEB}.table.view", f"{WEB}.table"},  # past the seam; the seam
        f"{WEB}.paper": {f"{WEB}.clubs.pages"},  # one area into another
        f"{WEB}.site.errors": {f"{WEB}.data.doors"},  # down: allowed
    }
    assert _breaches(graph) == [
        f"{WEB}.data.games imports {WEB}.table.view: table is above data",
        f"{WEB}.paper imports {WEB}.clubs.pages: areas meet only through {SEAMS}",
        f"{WEB}.sharing imports {WEB}.table.view: areas meet only through {SEAMS}",
    ]
    assert _circles(
        _rooms_graph({f"{WEB}.data.a": {f"{WEB}.site.b"}, f"{WEB}.site.b": {f"{WEB}.data.a"}})
    ) == [["data", "site", "data"]]


MOST_LINES = 600
"""A module longer than this is two subjects; split it where they part."""

MOST_PATHS = 20
"""A function with more paths through it than this (radon's cyclomatic complexity, grade D and
worse) is more than a reader can hold: split it where its cases part."""


def test_no_module_is_longer_than_a_reader_can_hold() -> None:
    long = {
        _module_name(path): lines
        for path in PACKAGE.rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def test_no_function_has_more_paths_than_a_reader_can_hold() -> None:
    tangled = {
        f"{_module_name(path)}.{block.fullname}": block.complexity
        for path in PACKAGE.rglob("*.py")
        for block in sorted_results(cc_visit(path.read_text(encoding="utf-8")))
        if block.complexity > MOST_PATHS
    }
    assert tangled == {}


def test_the_paths_are_counted_as_radon_counts_them() -> None:
    """Each ``and``/``or`` and each comprehension's ``if`` is a path too (ruff's count leaves
    them out, and let a function of 24 through)."""
    (block,) = cc_visit(
        "def f(a, b, c):\n    return [x for x in a if x] if (a and b) or c else None\n"
    )
    assert block.complexity == 6
