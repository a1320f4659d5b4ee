"""Hands played to their end by the simulation, and entered up to their settlement."""

from __future__ import annotations

import random

from flask.testing import FlaskClient

from scorekeeper.rules import Game, Pass, Play, Settle, Setup
from scorekeeper.rules.record import write_record
from scorekeeper.rules.simulate import play_hand
from tests.web.webtable import Table, import_record


def finished_hand(result: str, preset: str = "all-fives", players: int = 2) -> Game:
    """The first simulated game (by seed) whose first hand ends with ``result``."""
    names = ["Ann", "Bob", "Cy", "Dee"][:players]
    for seed in range(500):
        game = Game(Setup.create(names, preset))
        play_hand(game, random.Random(seed))
        if game.hands[0].result == result:
            return game
    raise AssertionError(f"no {result} hand found")


def unsettled(client: FlaskClient, game: Game) -> tuple[Table, Settle]:
    """Import ``game`` up to its last entry before the settlement, enter that entry on the
    page (the hand ends), and return the table and the settlement the simulation made."""
    record = write_record(game)
    del record["hands"][-1]["remaining"]
    record["hands"][-1]["events"].pop()
    last, settle = game.events[-2], game.events[-1]
    assert isinstance(settle, Settle)
    table = import_record(client, record)
    if isinstance(last, Pass):
        response = table.post("pass", {})
    else:
        assert isinstance(last, Play)
        response = table.play(str(last.tile), last.end)
    assert response.status_code == 303
    return table, settle


def held_fields(settle: Settle) -> dict[str, str]:
    """The settlement form's fields for what each player holds in ``settle``."""
    return {
        f"held-{seat}": str(held) if isinstance(held, int) else " ".join(map(str, held))
        for seat, held in settle.remaining.items()
    }
