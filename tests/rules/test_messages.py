"""Refusals carry their message as data: a rule id, an English template and the facts.

A fake language (its own words for a few templates, numbers in brackets, lists joined with
"+") shows that the tile, the end, the counts and what would fit are facts of a refusal,
said in the reader's language, while ``message`` stays the English the record and the
replay output give. A "shouting" language (every template in capitals) shows that every
word of a refusal comes from a template: what is left in small letters is a name or a value
the table or the record gave.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path

import pytest

from scorekeeper.rules.entering import CannotTurn, parse_held, turnable_lead
from scorekeeper.rules.errors import IllegalEntry, RecordRefusal, Refusal
from scorekeeper.rules.events import Draw, NewHand, Play
from scorekeeper.rules.game import Game
from scorekeeper.rules.messages import Message
from scorekeeper.rules.names import name_problem
from scorekeeper.rules.options import HOUSE_RULES_BY_NAME, PRESET_TITLES
from scorekeeper.rules.record import load_record
from scorekeeper.rules.setup import Setup
from scorekeeper.rules.tiles import tile

WORDS: dict[str, str | tuple[str, str]] = {
    "%(player)s's %(tile)s does not match the %(end)s end, which shows %(shows)s. %(fits)s": (
        "MATCH %(end)s/%(tile)s (%(player)s), %(end)s=%(shows)s; %(fits)s"
    ),
    "It fits %(fits)s.": "fits %(fits)s",
    "%(end)s (shows %(pips)s)": "%(end)s=%(pips)s",
    "%(player)s cannot draw a tile: %(left)s; %(then)s.": (
        "ONE %(player)s: %(left)s / %(then)s",
        "MANY(%(count)s) %(player)s: %(left)s / %(then)s",
    ),
    "only %(count)s tile can be drawn": ("left one", "left %(count)s"),
    "draw at most %(most)s": "max %(most)s",
    "The lead %(tile)s is a double: it shows %(number)s both ways, so there is nothing to turn.": (
        "DOUBLE %(tile)s/%(number)s"
    ),
    "a side scores nothing until one of its plays scores %(points)s or more": "IN AT %(points)s",
}


class Fake:
    """A language of its own: a few templates re-worded, numbers in brackets, lists with "+"."""

    def gettext(self, text: str) -> str:
        said = WORDS.get(text, text)
        assert isinstance(said, str), f"{text!r} is a plural message"
        return said

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        forms = WORDS.get(singular)
        if forms is None:
            return singular if count == 1 else plural
        assert isinstance(forms, tuple), f"{singular!r} is not a plural message"
        return forms[0] if count == 1 else forms[1]

    def number(self, value: int) -> str:
        return f"[{value}]"

    def listed(self, items: Sequence[str]) -> str:
        return " + ".join(items)


_PLACEHOLDER = re.compile(r"(%\(\w+\)s)")


def _shout(text: str) -> str:
    return "".join(
        part if _PLACEHOLDER.fullmatch(part) else part.upper() for part in _PLACEHOLDER.split(text)
    )


class Shout:
    """Every template in capitals, placeholders kept: words the engine wrote become capitals."""

    def gettext(self, text: str) -> str:
        return _shout(text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return _shout(singular if count == 1 else plural)

    def number(self, value: int) -> str:
        return str(value)

    def listed(self, items: Sequence[str]) -> str:
        return " & ".join(items)


def _led(lead: str = "6-4") -> Game:
    """Ann and Bob (All Fives: 9 tiles each, 10 in the boneyard); Ann has led ``lead``."""
    game = Game(Setup.create(["Ann", "Bob"]))
    game.push(NewHand(0))
    a, b = (int(half) for half in lead.split("-"))
    game.push(Play(0, tile(a, b)))
    return game


def _refused(game: Game, event: Play | Draw) -> Refusal:
    with pytest.raises(IllegalEntry) as caught:
        game.push(event)
    return caught.value


def test_a_match_refusal_carries_the_tile_the_end_and_what_would_fit() -> None:
    game = _led("6-4")  # W shows 6, E shows 4
    refusal = _refused(game, Play(1, tile(6, 2), "E"))
    assert refusal.rule == "match"
    said = refusal.said
    assert (said.fact("player"), said.fact("tile"), said.fact("end")) == ("Bob", "6-2", "E")
    assert said.fact("shows") == 4
    fits = said.fact("fits")
    assert isinstance(fits, Message) and str(fits) == "It fits W (shows 6)."
    # The record and the replay output keep the English, word for word.
    assert (
        refusal.message == "Bob's 6-2 does not match the E end, which shows 4. It fits W (shows 6)."
    )
    assert str(said) == refusal.message
    # Another language words the same facts its own way, nested messages and numbers too.
    assert said.said_in(Fake()) == "MATCH E/6-2 (Bob), E=[4]; fits W=[6]"


def test_the_ends_a_tile_fits_are_listed_as_the_language_lists() -> None:
    game = _led("6-6")  # a spinner: W and E both show 6
    refusal = _refused(game, Play(1, tile(6, 3)))
    assert refusal.rule == "end-ambiguous"
    assert refusal.message == (
        "Bob's 6-3 fits W (shows 6) and E (shows 6): name the end to play it on."
    )
    assert refusal.said.said_in(Fake()) == (
        "Bob's 6-3 fits W=[6] + E=[6]: name the end to play it on."
    )


def test_counts_choose_the_words_by_the_language_s_plural_rules() -> None:
    game = _led()
    many = _refused(game, Draw(1, 11))
    assert many.rule == "draw-empty"
    assert many.message == "Bob cannot draw 11 tiles: only 10 tiles can be drawn; draw at most 10."
    assert many.said.fact("count") == 11
    assert many.said.said_in(Fake()) == "MANY([11]) Bob: left [10] / max [10]"


def test_a_refusal_says_every_word_through_its_templates() -> None:
    """Said in capitals, a refusal of play keeps small letters only in names and values."""
    game = _led("6-4")
    refusals = [
        _refused(game, Play(1, tile(6, 2), "E")),  # match, with what would fit
        _refused(game, Play(1, tile(5, 3))),  # fits no open end
        _refused(game, Play(1, tile(6, 4))),  # already on the table
        _refused(game, Play(1, tile(6, 3), "N")),  # no N end yet
        _refused(game, Play(0, tile(6, 3))),  # not Ann's turn
        _refused(game, Draw(1, 11)),  # more than the boneyard gives
    ]
    for refusal in refusals:
        shouted = refusal.said.said_in(Shout())
        for name in ("Ann", "Bob"):
            shouted = shouted.replace(name, "")
        assert not re.search("[a-z]", shouted), (refusal.message, shouted)
        assert refusal.said.said_in(Shout()) != refusal.message


def test_a_record_refusal_carries_the_same_message_as_live_entry() -> None:
    data = Path(__file__).resolve().parents[1] / "data" / "refused_match.json"
    expected = json.loads(data.with_name("refused_match.expected.json").read_text("utf-8"))
    with pytest.raises(RecordRefusal) as caught:
        load_record(data.read_bytes())
    refusal = caught.value
    assert refusal.rule == "match"
    assert isinstance(refusal.said, Message)
    assert refusal.as_json()["message"] == refusal.message == str(refusal.said)
    assert refusal.message == expected["error"]["message"]
    assert (refusal.said.fact("tile"), refusal.said.fact("end")) == ("5-2", "E")
    assert refusal.said.said_in(Fake()) == "MATCH E/5-2 (Ann), E=[6]; It fits no open end."


def test_other_words_of_the_referee_are_messages_too() -> None:
    game = _led("5-5")
    with pytest.raises(CannotTurn) as caught:
        turnable_lead(game)
    assert (
        str(caught.value)
        == "The lead 5-5 is a double: it shows 5 both ways, so there is nothing to turn."
    )
    assert caught.value.said.said_in(Fake()) == "DOUBLE 5-5/[5]"
    with pytest.raises(Refusal) as held:
        parse_held("Ann", "six")
    assert held.value.said.fact("given") == "six"
    problem = name_problem("A" * 41)
    assert problem is not None and problem.fact("length") == 41
    get_in = HOUSE_RULES_BY_NAME["get_in"]
    assert get_in.value_texts["15"].said_in(Fake()) == "IN AT [15]"
    assert str(get_in.value_texts["15"]) == (
        "a side scores nothing until one of its plays scores 15 or more"
    )
    assert isinstance(get_in.title, Message) and isinstance(PRESET_TITLES["fives-up"], Message)
