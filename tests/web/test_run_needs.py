"""`make run` installs pyproject's dependencies alone, not the test tools (the ``test`` extra):
the app, its migrations and `flask serve` must start and serve a game without any of those."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9._-]+)\s*(?:\[([^\]]*)\])?")
EXTRA = re.compile(r"""extra\s*==\s*["']([^"']+)["']""")


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _closure(requirements: list[str]) -> set[str]:
    """The distributions ``requirements`` install, with what they require in turn (and what
    the extras asked for require, as pip installs it)."""
    seen: set[tuple[str, str]] = set()
    todo: list[tuple[str, str]] = []

    def add(requirement: str) -> None:
        found = REQUIREMENT.match(requirement)
        if found:
            extras = [e.strip() for e in (found[2] or "").split(",") if e.strip()]
            todo.extend((_canonical(found[1]), extra) for extra in ["", *extras])

    for requirement in requirements:
        add(requirement)
    while todo:
        name, extra = todo.pop()
        if (name, extra) in seen:
            continue
        seen.add((name, extra))
        try:
            required = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for requirement in required:
            wanted = EXTRA.search(requirement.partition(";")[2])
            if (wanted[1] if wanted else "") == extra:
                add(requirement.partition(";")[0])
    return {name for name, _ in seen}


def tools_of_the_tests() -> tuple[set[str], list[str]]:
    """The top-level modules only the test extra installs, and what the app needs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    needed = _closure(project["dependencies"])
    tools = _closure(project["optional-dependencies"]["test"]) - needed
    modules = {
        module
        for module, distributions in metadata.packages_distributions().items()
        if any(_canonical(d) in tools for d in distributions)
        and not any(_canonical(d) in needed for d in distributions)
    }
    return modules, sorted(needed)


BLOCKED_RUN = """
import sys, tempfile, importlib.abc
blocked = set(sys.argv[1].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in blocked:
            raise ModuleNotFoundError(f"{name} is a test tool, not installed by make run")
        return None

sys.meta_path.insert(0, Refuse())
import flask_migrate
from app import create_app
from scorekeeper.web.site import cli  # what `flask serve` runs
folder = tempfile.mkdtemp()
app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/db.sqlite"})
with app.app_context():
    flask_migrate.upgrade()
client = app.test_client()
home = client.get("/")
form = client.get("/games/new")
assert home.status_code == 200 and form.status_code == 200, (home.status_code, form.status_code)
print("served")
"""


def test_the_app_serves_without_the_test_tools() -> None:
    """Every module of the test extra that the app's dependencies do not also install is
    refused on import; the app still migrates its database and serves the home page and
    the new-game form, as `make run` does."""
    modules, needed = tools_of_the_tests()
    # The suite's own tools are among those refused: the check has teeth.
    assert {"pytest", "playwright", "mypy", "hypothesis"} <= modules
    assert "flask" in needed and "gunicorn" in needed
    done = subprocess.run(
        [sys.executable, "-c", BLOCKED_RUN, ",".join(sorted(modules))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and "served" in done.stdout, done.stderr[-3000:]
