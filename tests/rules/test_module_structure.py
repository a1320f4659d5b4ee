"""How the package is layered, read from the source (nothing is imported, so any module may be
checked without Flask): the referee stands alone, and no two modules need each other.

Every import counts, those under ``if TYPE_CHECKING:`` too: a circle that only the type
checker follows is still a circle a reader has to untangle.
"""

from __future__ import annotations

import ast
from pathlib import Path

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
    assert "scorekeeper.web.store" in graph["scorekeeper.web.views"]


def test_a_circle_is_found_when_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _circles(graph) == [["a", "b", "c", "a"]]


def test_no_module_imports_one_that_imports_it_back() -> None:
    """Setup has its own module, so the game and its settlement do not need each other."""
    assert _circles(_graph()) == []


def test_the_referee_needs_no_web_framework_and_no_database() -> None:
    for path in (PACKAGE / "rules").rglob("*.py"):
        roots = {name.split(".")[0] for name in _imports(path)}
        assert not roots & {"flask", "sqlalchemy", "flask_sqlalchemy", "jinja2"}, path.name
        assert not any(name.startswith("scorekeeper.web") for name in _imports(path)), path.name


def test_the_table_view_does_not_reach_into_the_store() -> None:
    """What the table shows is derived from a loaded game; loading and storing it is not its
    business (the plain data both share is in web/loaded.py)."""
    table = _imports(PACKAGE / "web" / "table.py")
    assert "scorekeeper.web.store" not in table
    assert "scorekeeper.web.loaded" in table
