"""Regenerate the simulated games of the record corpus in tests/data/.

    .venv/bin/python -m tests.make_corpus          # rewrite sim_*.json, report stale expectations
    .venv/bin/python -m tests.make_corpus --write  # also rewrite sim_*.expected.json

Only ``sim_*`` files are ever written. The ``hand_*`` and ``refused_*`` records and their
expected outputs were worked out by hand from docs/rules.md and are never touched here.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from scorekeeper.rules.game import Setup
from scorekeeper.rules.house_rule import OptionValue
from scorekeeper.rules.record import replay, write_record
from scorekeeper.rules.simulate import play_game

DATA = Path(__file__).resolve().parent / "data"
PREFIX = "sim_"
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")


@dataclass(frozen=True)
class SimGame:
    """One simulated game of the corpus: its file name, setup and the seed that plays it."""

    name: str
    players: int
    preset: str
    seed: int
    options: dict[str, OptionValue] = field(default_factory=dict)
    partners: bool | None = None

    def setup(self) -> Setup:
        """The game's setup, players named Ann, Bob, Cy, Dee, ... Hal in seat order."""
        return Setup.create(list(NAMES[: self.players]), self.preset, self.options, self.partners)


SIM_GAMES: tuple[SimGame, ...] = (
    SimGame("sim_all_fives_2p", 2, "all-fives", 11),
    SimGame("sim_fives_up_3p", 3, "fives-up", 12),
    SimGame(
        "sim_totally_fives_4p_all_spinners_reserve",
        4,
        "totally-fives",
        13,
        {"spinners": "all", "boneyard_reserve": 2},
    ),
    SimGame(
        "sim_all_fives_4p_partners_immediate",
        4,
        "all-fives",
        14,
        {"win_check": "immediate", "spinner_counts": "no", "target": 100},
    ),
    SimGame(
        "sim_fives_up_2p_no_spinner_seven_five",
        2,
        "fives-up",
        15,
        {"spinners": "none", "deal": "seven-five", "bonus_in_fives": "no", "target": 150},
    ),
    SimGame("sim_all_fives_6p_double_nine", 6, "all-fives", 18, {"set": "double-nine"}),
    SimGame("sim_fives_up_8p_double_twelve", 8, "fives-up", 19, {"set": "double-twelve"}),
    SimGame(
        "sim_totally_fives_5p_double_twelve_all_spinners",
        5,
        "totally-fives",
        23,
        {"set": "double-twelve", "spinners": "all"},
    ),
)


def _dump(obj: object) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def generate(game: SimGame) -> tuple[str, str]:
    """The record text of a complete simulated game and its replay output as JSON text."""
    played = play_game(game.setup(), random.Random(game.seed))
    if played.winner is None:
        raise SystemExit(f"{game.name}: seed {game.seed} does not finish the game; pick another.")
    record = _dump(write_record(played))
    output, _legal = replay(record)
    return record, _dump(output)


def main(argv: list[str] | None = None) -> int:
    """Rewrite the sim_* records; with --write also their expected outputs. 1 if any is stale."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite sim_*.expected.json too")
    args = parser.parse_args(argv)
    stale = 0
    for game in SIM_GAMES:
        assert game.name.startswith(PREFIX)
        record, expected = generate(game)
        (DATA / f"{game.name}.json").write_text(record, encoding="utf-8")
        target = DATA / f"{game.name}.expected.json"
        current = target.read_text(encoding="utf-8") if target.exists() else None
        if args.write:
            target.write_text(expected, encoding="utf-8")
            print(f"wrote {game.name}.json and {game.name}.expected.json")
        elif current is None or json.loads(current) != json.loads(expected):
            stale += 1
            print(f"{game.name}.expected.json is missing or differs: rerun with --write")
        else:
            print(f"{game.name}: unchanged")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
