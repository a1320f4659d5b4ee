"""The record corpus in tests/data/: every record replays through the real CLI as expected.

``hand_*``, ``var_*`` and ``refused_*`` expectations were computed by hand from docs/rules.md
(an oracle); ``sim_*`` ones pin the engine's output for complete simulated games
(tests/make_corpus.py). See tests/data/README.md.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import Result

from app import create_app
from scorekeeper.rules.game import Setup
from scorekeeper.rules.options import HOUSE_RULES
from scorekeeper.rules.practice_rule import SCORELESS
from scorekeeper.rules.record import read_timed, write_record
from scorekeeper.rules.tiles import TILE_SETS, TileSet

DATA = Path(__file__).resolve().parent / "data"
EXPECTED = ".expected.json"
PREFIXES = ("hand_", "refused_", "sim_", "var_")
RECORDS = sorted(path for path in DATA.glob("*.json") if not path.name.endswith(EXPECTED))
CASES = [path for path in RECORDS if path.with_name(path.stem + EXPECTED).exists()]


def _expected(record: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(record.with_name(record.stem + EXPECTED).read_text("utf-8"))
    return loaded


def _replay(*args: str, stdin: bytes | None = None) -> Result:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return app.test_cli_runner().invoke(args=["replay", *args], input=stdin)


def _check_output(result: Result, expected: dict[str, Any]) -> None:
    """The printed JSON and exit status are what the expected file says (wording aside)."""
    output = json.loads(result.stdout)
    assert result.exit_code == (0 if expected["ok"] else 1), result.stdout
    if expected["ok"]:
        assert output == expected
        return
    error = output["error"]
    assert output["ok"] is False and set(output) == {"ok", "error"}
    assert {key: error[key] for key in ("rule", "hand", "event")} == {
        key: expected["error"][key] for key in ("rule", "hand", "event")
    }
    assert isinstance(error["message"], str) and error["message"].strip()


@pytest.mark.parametrize("record", CASES, ids=[path.stem for path in CASES])
def test_replay_matches_expected(record: Path) -> None:
    """``flask replay FILE`` prints the expected JSON and exits 0 (legal) or 1 (refused)."""
    _check_output(_replay(str(record)), _expected(record))


@pytest.mark.parametrize("name", ["hand_partners_blocked_reserve", "refused_hand_over"])
def test_replay_reads_standard_input(name: str) -> None:
    """``flask replay -`` reads the record from standard input."""
    record = DATA / f"{name}.json"
    _check_output(_replay("-", stdin=record.read_bytes()), _expected(record))


def _normalized(record: dict[str, Any]) -> dict[str, Any]:
    """A record with non-lead tiles high first, yes/no options as text and the preset explicit."""
    options = {
        name: ("yes" if value else "no") if isinstance(value, bool) else value
        for name, value in record.get("options", {}).items()
    }
    tiles: TileSet = TILE_SETS[options.get("set", "double-six")]

    def _high_first(text: str) -> str:
        return str(tiles.parse(text))

    hands = []
    for hand in record["hands"]:
        events = []
        for index, event in enumerate(hand["events"]):
            event = dict(event)
            if "play" in event and index > 0:
                event["play"] = _high_first(event["play"])
            events.append(event)
        normal = {"lead": hand["lead"], "events": events}
        if "settled_at" in hand:
            normal["settled_at"] = hand["settled_at"]
        if "remaining" in hand:
            normal["remaining"] = {
                name: [_high_first(t) for t in held] if isinstance(held, list) else held
                for name, held in hand["remaining"].items()
            }
        if "after_settlement" in hand:
            normal["after_settlement"] = hand["after_settlement"]
        hands.append(normal)
    normal_record = {**record, "preset": record.get("preset", "all-fives"), "hands": hands}
    if options:
        normal_record["options"] = options
    return normal_record


LEGAL = [path for path in CASES if _expected(path)["ok"]]


@pytest.mark.parametrize("record", LEGAL, ids=[path.stem for path in LEGAL])
def test_write_record_round_trip(record: Path) -> None:
    """Reading a legal record and writing it back gives the same record, times and all."""
    data = json.loads(record.read_text("utf-8"))
    found = read_timed(data)
    written = json.loads(json.dumps(write_record(found.game, found.times)))
    assert _normalized(written) == _normalized(data)


@pytest.mark.parametrize("record", LEGAL, ids=[path.stem for path in LEGAL])
def test_an_export_names_every_house_rule_and_reads_to_the_same_game(record: Path) -> None:
    """An export names every house rule (and partners with 4 players; practice only when it
    is on, since it changes no score): those the record names as it named them, the rest as
    its preset gives them; it reads back to the same rules and the same replay."""
    data = json.loads(record.read_text("utf-8"))
    found = read_timed(data)
    exported = write_record(found.game, found.times, every_rule=True)
    written = _normalized(json.loads(json.dumps(exported)))
    given = _normalized(data)
    options = written.pop("options")
    assert {name: options[name] for name in given.pop("options", {})} == data_options(data)
    # A house rule that changes no score (practice) is named only when it is on.
    rules = found.game.setup.rules
    assert list(options) == [
        rule.name
        for rule in HOUSE_RULES
        if rule.name not in SCORELESS or rules.value(rule.name) != SCORELESS[rule.name]
    ]
    again = Setup.create(written["players"], written["preset"], options, written.get("partners"))
    assert again.rules == found.game.setup.rules
    assert again.in_partnership == found.game.setup.in_partnership
    if len(written["players"]) == 4 and "partners" not in given:
        given["partners"] = written["partners"]
    assert written == given
    assert _replay("-", stdin=json.dumps(exported).encode()).stdout == _replay(str(record)).stdout


def data_options(data: dict[str, Any]) -> dict[str, Any]:
    """The options a record names, yes/no spelled as words."""
    return _normalized(data).get("options", {})


def test_every_record_has_an_expectation_and_a_known_kind() -> None:
    """No record in the corpus is silently skipped; names say how the expectation was made."""
    assert len(CASES) >= 24
    assert CASES == RECORDS
    for path in RECORDS:
        assert path.name.startswith(PREFIXES), path.name
        expected = _expected(path)
        assert expected["ok"] is (not path.name.startswith("refused_")), path.name


def test_simulated_games_are_complete() -> None:
    """Every sim_* record is a whole game played to a winner."""
    sims = [path for path in CASES if path.name.startswith("sim_")]
    assert len(sims) >= 3
    for path in sims:
        assert _expected(path)["winner"] is not None, path.name
