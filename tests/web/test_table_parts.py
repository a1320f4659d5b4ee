"""An htmx entry's answer leaves out the parts of the table the page holds unchanged (the
tray's tiles, what lies below the screen: ``fragments.part``, ``static/js/parts.js``), and
sends every part that changed whole; every other answer (a whole page, a refusal, a stale
page, a form without the page's parts named) carries the whole table."""

from __future__ import annotations

import random
import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.rules import ALL_TILES, Game, Setup
from scorekeeper.rules.simulate import play_game
from scorekeeper.web.data import games
from scorekeeper.web.drawing.fragments import MOST_PARTS, PARTS_HEADER
from tests.web.webtable import Table, page_seq, started

PART = re.compile(r'<[a-z][a-z0-9-]*\b([^>]*\bdata-part="[0-9a-f]+"[^>]*)>')
ID = re.compile(r'\bid="([^"]+)"')
FINGERPRINT = re.compile(r'\bdata-part="([0-9a-f]+)"')


def _parts(html: str) -> list[tuple[str, str, bool]]:
    """Each part's id and fingerprint, and whether it is left for the page to keep."""
    found = []
    for attributes in PART.findall(html):
        name, fingerprint = ID.search(attributes), FINGERPRINT.search(attributes)
        assert name and fingerprint, attributes
        found.append((name.group(1), fingerprint.group(1), 'hx-preserve="true"' in attributes))
    return found


def parts_of(html: str) -> dict[str, str]:
    """Every part of ``html`` and its fingerprint, by id."""
    return {name: fingerprint for name, fingerprint, _ in _parts(html)}


def left_out(html: str) -> set[str]:
    """The parts ``html`` leaves for the page to keep."""
    return {name for name, _, kept in _parts(html) if kept}


def fragment(client: FlaskClient, table: Table) -> str:
    """The table as htmx asks for it."""
    response = client.get(table.url, headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.get_data(as_text=True)


def named(parts: dict[str, str]) -> str:
    """The header parts.js sends for a page holding ``parts``."""
    return " ".join(f"{name}={fingerprint}" for name, fingerprint in parts.items())


def enter(
    client: FlaskClient, table: Table, action: str, data: dict[str, str], parts: str, version: int
) -> tuple[int, str]:
    """An htmx entry from a page holding ``parts`` at ``version``: status and answer."""
    response = client.post(
        f"{table.url}/{action}",
        data={"version": str(version), **data},
        headers={"HX-Request": "true", PARTS_HEADER: parts},
    )
    return response.status_code, response.get_data(as_text=True)


def later_game(app: Flask, client: FlaskClient) -> tuple[Table, Game]:
    """A 2-player game in play in its third hand, after its fourth play, with tiles to draw."""
    setup = Setup.create(["Ann", "Bob"], "all-fives", {"target": 1000})
    for seed in range(100):
        game = Game(setup)
        for event in play_game(setup, random.Random(seed)).events:
            game.push(event)
            hand = game.hand
            if hand and hand.number == 3 and len(hand.plays) == 4:
                break
        if game.phase == "play" and game.drawable() > 0:
            with app.app_context():
                key = games.create(setup, list(game.events)).row.edit_key
            return Table(client, key), game
    raise AssertionError("no simulated game fits")


def one_end(game: Game) -> str:
    """A tile not on the table that fits exactly one end."""
    hand = game.hand
    assert hand is not None
    return str(
        next(t for t in ALL_TILES if t not in hand.layout.on_table and len(game.fits(t)) == 1)
    )


def test_an_entry_sends_only_the_parts_it_changed(app: Flask, client: FlaskClient) -> None:
    table, game = later_game(app, client)
    held = parts_of(fragment(client, table))
    assert {"table-picture", "hand-summary-1", "hand-summary-2", "tray-0-0"} <= set(held)
    assert "hand-summary-3" not in held  # the hand in play: its summary changes
    assert len([name for name in held if name.startswith("tray-")]) == 28

    tile = one_end(game)
    status, answer = enter(client, table, "play", {"tile": tile}, named(held), table.version())
    assert status == 200
    now = parts_of(fragment(client, table))
    kept = left_out(answer)
    # What is left out is exactly what a fresh table shows as the page has it...
    assert kept == {name for name in held if now[name] == held[name]}
    # ...and everything else comes whole, as a fresh table shows it.
    assert {name: parts_of(answer)[name] for name in now} == now
    assert {"hand-summary-1", "hand-summary-2"} <= kept
    assert f"tray-{tile}" not in kept and "table-picture" not in kept
    played = re.search(rf'<button [^>]*id="tray-{tile}"[^>]*>', answer)
    assert played and "disabled" in played.group(0)
    assert page_seq(answer) == page_seq(fragment(client, table)) == len(game.events) + 1

    # A draw changes neither the tray nor the layout: both stay on the page.
    held = now
    status, answer = enter(client, table, "draw", {}, named(held), table.version())
    assert status == 200
    assert {name for name in held if name.startswith("tray-")} <= left_out(answer)
    assert "table-picture" in left_out(answer)
    assert len(answer) < len(fragment(client, table)) / 2


def test_a_part_the_page_shows_otherwise_is_sent_whole(client: FlaskClient) -> None:
    table = started(client)
    held = parts_of(fragment(client, table))
    held["tray-6-6"] = "0" * 12
    status, answer = enter(client, table, "play", {"tile": "5-5"}, named(held), table.version())
    assert status == 200
    assert "tray-6-6" not in left_out(answer)
    # Whole, as a page without parts shows it, the part's attributes last.
    assert re.search(
        r'<button type="submit" name="tile" value="6-6" [^>]* id="tray-6-6" '
        r'data-part="[0-9a-f]+">',
        answer,
    )


def test_refused_stale_and_plain_answers_carry_the_whole_table(client: FlaskClient) -> None:
    table = started(client)
    held = named(parts_of(fragment(client, table)))
    version = table.version()

    # A refusal (a tile played twice: it is on the table the second time) shows the table
    # whole.
    status, answer = enter(client, table, "play", {"tile": "5-5"}, held, version)
    assert status == 200
    status, answer = enter(client, table, "play", {"tile": "5-5"}, held, table.version())
    assert status == 422
    assert not left_out(answer) and parts_of(answer) == parts_of(fragment(client, table))

    # A page that fell behind gets the table as it is now, whole.
    status, answer = enter(client, table, "draw", {}, held, version)
    assert status == 409
    assert not left_out(answer) and parts_of(answer) == parts_of(fragment(client, table))

    # Without htmx the entry is stored and the browser sent to the whole page.
    response = client.post(
        f"{table.url}/draw",
        data={"version": str(table.version())},
        headers={PARTS_HEADER: held},
    )
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert not left_out(page) and len([p for p in parts_of(page) if p.startswith("tray-")]) == 28


def test_a_header_naming_more_parts_than_a_table_has_is_not_trusted(client: FlaskClient) -> None:
    table = started(client)
    assert table.play("5-5").status_code == 303
    held = parts_of(fragment(client, table))
    padding = " ".join(f"x{number}=0" for number in range(MOST_PARTS))
    status, answer = enter(client, table, "draw", {}, f"{named(held)} {padding}", table.version())
    assert status == 200
    assert not left_out(answer)
