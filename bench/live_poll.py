"""What following a game live costs the server: an unchanged poll, a changed one, and a trivial
Flask request as the floor, measured in the same run on the same app.

Run from the repository root: ``.venv/bin/python -m bench.live_poll`` (``--requests N``).
Every page following a game asks its live URL every 1.5 seconds; while nothing changes the
server answers 304 from the game's version alone (one indexed column of one row: no events
loaded, no replay). The target: an unchanged poll costs at most 1.5 times the trivial request.
The game is a long one (a complete 2-player game to 250, every hand but the last settled). A
changed poll is timed twice: as the first phone to ask after the change, which renders the
new table, and as a phone asking after another did, which is given the table kept for that
version (``scorekeeper/web/rendered.py``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import flask_migrate
from flask.testing import FlaskClient

from app import create_app
from scorekeeper.rules.record import load_record
from scorekeeper.web import rendered
from scorekeeper.web.data import games

TARGET_RATIO = 1.5
GAME = Path(__file__).resolve().parents[1] / "tests" / "data" / "sim_all_fives_2p.json"


def timed(
    requests: int, ask: Callable[[], int], status: int, before: Callable[[], None] | None = None
) -> list[float]:
    """The time of each of ``requests`` calls of ``ask``, in microseconds; checks the status.
    ``before`` runs before each call, untimed."""
    times = []
    for _ in range(requests):
        if before is not None:
            before()
        start = time.perf_counter()
        got = ask()
        times.append((time.perf_counter() - start) * 1e6)
        assert got == status, f"expected {status}, got {got}"
    return times


def main() -> int:
    """Measure and print the figures; exit 1 when the target is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=3000)
    args = parser.parse_args()

    folder = Path(tempfile.mkdtemp())
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}"}
    )

    @app.get("/bench/trivial")
    def trivial() -> str:
        return "ok"

    with app.app_context():
        flask_migrate.upgrade()
        data = json.loads(GAME.read_text())
        data["hands"][-1].pop("remaining", None)
        game = load_record(json.dumps(data), unsettled_last_hand=True)
        row = games.create(game.setup, game.events).row
        key, events = row.edit_key, len(game.events)

    client: FlaskClient = app.test_client()
    live = f"/games/{key}/live"
    # The entity tag as the server gives it (the version and the page's language): a page
    # following the game sends back what its first poll got.
    first = client.get(live, headers={"HX-Request": "true"})
    assert first.status_code == 200 and first.headers.get("ETag"), first.status_code
    unchanged = {"If-None-Match": first.headers["ETag"], "HX-Request": "true"}
    changed = {"If-None-Match": '"v0"', "HX-Request": "true"}

    def floor() -> int:
        return client.get("/bench/trivial").status_code

    def poll_unchanged() -> int:
        return client.get(live, headers=unchanged).status_code

    def poll_changed() -> int:
        return client.get(live, headers=changed).status_code

    def first_to_ask() -> None:
        # The first phone to ask after a change renders the table; the others are given it.
        rendered.forget(app)

    for ask, status in ((floor, 200), (poll_unchanged, 304), (poll_changed, 200)):
        timed(50, ask, status)  # warm up
    rounds: dict[str, list[float]] = {"trivial": [], "unchanged": [], "changed": [], "kept": []}
    # Interleave them in rounds, so a busy moment of the machine hits them all alike.
    for _ in range(5):
        rounds["trivial"] += timed(args.requests // 5, floor, 200)
        rounds["unchanged"] += timed(args.requests // 5, poll_unchanged, 304)
        rounds["changed"] += timed(max(1, args.requests // 50), poll_changed, 200, first_to_ask)
        rounds["kept"] += timed(max(1, args.requests // 50), poll_changed, 200)

    medians = {name: statistics.median(times) for name, times in rounds.items()}
    print(f"Game: {events} events ({GAME.name}, last hand open); {args.requests} requests each")
    print(f"{'request':<38}{'median':>10}{'p90':>10}{'ratio':>8}")
    for name, label in (
        ("trivial", "trivial Flask request (floor)"),
        ("unchanged", "unchanged poll (304)"),
        ("changed", "changed poll, first to ask (render)"),
        ("kept", "changed poll, rendered already"),
    ):
        times = sorted(rounds[name])
        p90 = times[int(len(times) * 0.9)]
        ratio = medians[name] / medians["trivial"]
        print(f"{label:<38}{medians[name]:>8.0f}us{p90:>8.0f}us{ratio:>7.2f}x")
    ratio = medians["unchanged"] / medians["trivial"]
    verdict = "met" if ratio <= TARGET_RATIO else "MISSED"
    print(f"Target: an unchanged poll within {TARGET_RATIO}x of the floor: {ratio:.2f}x, {verdict}")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
