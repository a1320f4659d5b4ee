"""What every test shares: under pytest-xdist (``make test`` runs a process per core), a test
marked ``alone`` runs while no other test does, and the longest tests run first.

Such a test holds the app to a time (a page following the game shows an entry within 2 s); with
the other processes busy in their own browsers at the same moment, it measured the load of the
machine more than the app. Its process waits until the others have finished the test they are
in and they wait for it, through two lock files every process of the run opens (a process that
wants to run alone takes the door first, so that the others cannot keep it waiting).
"""

from __future__ import annotations

import fcntl
import os
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest


def _locks(config: pytest.Config) -> Path | None:
    """The folder of the run's lock files, shared by its processes; None outside xdist."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return None
    basetemp = config.option.basetemp  # xdist gives each process <the run's basetemp>/popen-gwN
    if basetemp:
        return Path(basetemp).parent
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID", "run")
    folder = Path(tempfile.gettempdir()) / f"scorekeeper-tests-{run}"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """Run the test (its setup, call and teardown) alone if it is marked so, else alongside
    the other processes' tests, but never while one of them runs alone."""
    folder = _locks(item.config)
    if folder is None:
        return (yield)
    alone = item.get_closest_marker("alone") is not None
    with open(folder / "alone.door", "a") as door, open(folder / "alone.room", "a") as room:
        fcntl.flock(door, fcntl.LOCK_EX)
        if alone:
            fcntl.flock(room, fcntl.LOCK_EX)
        else:
            fcntl.flock(room, fcntl.LOCK_SH)
            fcntl.flock(door, fcntl.LOCK_UN)
        try:
            return (yield)
        finally:
            fcntl.flock(room, fcntl.LOCK_UN)
            fcntl.flock(door, fcntl.LOCK_UN)


FIRST = (
    "tests/browser/test_larger_sets.py",
    "tests/browser/test_whole_games.py",
    "tests/rules/test_properties.py",
    "tests/browser/test_muggins.py",
    "tests/browser/test_text_size.py",
    "tests/web/test_vanished_phone.py",
    "tests/web/test_club_fuzz.py",
)
"""The files of the longest tests (10 to 50 s each, on one core; bench/README.md has the
figures), longest first: they run first, so that at the end of a run under xdist no process
is left alone with one of them while the other has finished (worksteal hands each process a
half of the tests in order, and steals from the end)."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests marked ``alone`` to the front, then those of :data:`FIRST`, each file
    kept together, in the order of :data:`FIRST`.

    A test marked ``alone`` waits for the test the other process is in to end: at the front it
    waits for a short one of the other half, not for a whole game of a minute."""
    alone = [item for item in items if item.get_closest_marker("alone") is not None]
    rank = {path: place for place, path in enumerate(FIRST)}
    first = sorted(
        (item for item in items if item.nodeid.split("::")[0] in rank and item not in alone),
        key=lambda item: rank[item.nodeid.split("::")[0]],
    )
    front = {id(item) for item in alone + first}
    items[:] = alone + first + [item for item in items if id(item) not in front]
