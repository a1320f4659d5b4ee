"""What one change costs the night's board, against drawing the whole board, by tables.

Run from the repository root: ``.venv/bin/python -m bench.night_board`` (``--tables 10 40``,
``--repeats N``).

For each count of tables a night of twos is opened on a new SQLite database through the
test client (every hook of the app), round 1 started and one entry made at table 1. It times,
as medians of ``--repeats`` runs:

- **board**: the whole director's board (every card and the standings), what a page costs
  when it opens;
- **card**: one table's card, what the page asks after its stream names a changed table;
- **standings**: the standings alone, asked after a game ended;
- **versions**: every table's version, what a page without a stream asks every 3 seconds.

Target: the card flat in the number of tables (within 2x from 10 to 40 tables). Figures, not
a test: it exits 0 whatever they are.
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
import warnings
from pathlib import Path

from flask.testing import FlaskClient

from tests.support.server import migrated_app
from tests.web.webforms import form_for


def open_night(client: FlaskClient, tables: int, size: int = 2) -> tuple[str, list[str]]:
    """A new club with ``size`` players a table, its night and round 1 started, through the
    app's forms (``bench/night_load.py`` opens its nights of fours this way too): the night's
    path and each table's edit key, table 1 first."""
    club = client.post("/clubs/new", data={"name": "Bench"}).headers["Location"]
    names = [f"P{n:03}" for n in range(size * tables)]
    for name in names:
        client.post(f"{club}/players/add", data={"name": name})
    page = client.get(f"{club}/nights/new").get_data(as_text=True)
    form = form_for(page, "/nights/new")
    data: dict[str, object] = form.data(form.button(name="open_night"))
    data["present"] = re.findall(r'name="present" type="checkbox" value="(\d+)"', page)
    data["table_size"] = str(size)
    night = client.post(f"{club}/nights/new", data=data).headers["Location"]
    round_page = client.post(f"{night}/rounds").headers["Location"]
    client.post(f"{round_page}/start")
    keys = re.findall(
        r'href="/games/([A-Za-z0-9_-]{22})" data-table-link',
        client.get(round_page).get_data(as_text=True),
    )
    return night, keys


def _median_ms(client: FlaskClient, path: str, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        assert client.get(path).status_code == 200, path
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[10, 40])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    # The test client keeps every game it started in one session cookie, past a browser's size.
    warnings.filterwarnings("ignore", message="The 'session' cookie is too large")
    cards = []
    for tables in args.tables:
        with tempfile.TemporaryDirectory() as folder:
            app = migrated_app(
                Path(folder) / "bench.sqlite", RATELIMIT_ENABLED=False, WTF_CSRF_ENABLED=False
            )
            client = app.test_client()
            night, keys = open_night(client, tables)
            assert len(keys) == tables, (len(keys), tables)
            client.post(f"/games/{keys[0]}/play", data={"tile": "3-2"})
            figures = {
                what: _median_ms(client, f"{night}{path}", args.repeats)
                for what, path in (
                    ("board", "/board"),
                    ("card", "/board/tables/1"),
                    ("standings", "/board/standings"),
                    ("versions", "/board/versions"),
                )
            }
            cards.append(figures["card"])
            said = ", ".join(f"{what} {ms:.1f} ms" for what, ms in figures.items())
            print(f"{tables} tables: {said}")
    if len(cards) > 1:
        print(f"card, most tables against fewest: {cards[-1] / cards[0]:.2f}x (target under 2x)")


if __name__ == "__main__":
    main()
