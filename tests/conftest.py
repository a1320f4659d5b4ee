"""What every test shares: under pytest-xdist, a process per core and one more, and the
longest tests first.

No test holds the app to a time, so none needs the machine to itself: a test waits for what it
checks, and passes on a slower or busier machine (bench/README.md, "The suite on a slowed
CPU"); the app's speed targets live in bench/.
"""

from __future__ import annotations

import os

import pytest
from xdist.plugin import pytest_xdist_auto_num_workers as one_per_core

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
is left alone with one of them while the others have finished (worksteal hands each process
its share of the tests in order, and steals from the end)."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (``make test``, ``.ci/run``): xdist's process per core, and one more.

    A browser test waits for the browser's frames and for the server: with a process per core
    the cores were idle 13 % of a run, and one more process keeps them busy (on this 2-core
    machine the suite took 10:06 with 2 processes, 8:54 with 3 and 9:26 with 4;
    bench/README.md). A number named in ``PYTEST_XDIST_AUTO_NUM_WORKERS`` is left to xdist."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    return one_per_core(config) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Move the tests of :data:`FIRST` to the front, each file kept together, in the order of
    :data:`FIRST`."""
    rank = {path: place for place, path in enumerate(FIRST)}
    first = sorted(
        (item for item in items if item.nodeid.split("::")[0] in rank),
        key=lambda item: rank[item.nodeid.split("::")[0]],
    )
    front = {id(item) for item in first}
    items[:] = first + [item for item in items if id(item) not in front]
