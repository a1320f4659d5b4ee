"""The referee's explanations, notes and sheet texts are messages: facts a language re-words.

A fake language (its own words for a few messages, numbers in brackets, lists joined with
"+") shows that the numbers of a count and a settlement are facts of the message, not part
of an English string, and that every nested message is said in the same language.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.rules.explain import explain_all
from scorekeeper.rules.messages import Message
from scorekeeper.rules.notes import referee_notes
from scorekeeper.rules.sheet import score_sheet, sheet_csv
from scorekeeper.rules.standings import PLAYER_COLUMNS
from tests.rules.helpers import (
    alternate,
    duo_domino,
    game_of,
)

WORDS = {
    "total %(count)s, a multiple of five: +%(points)s": "summa %(count)s, femtal: +%(points)s",
    "%(player)s played %(tile)s on %(end)s": "%(player)s lade %(tile)s på %(end)s",
    "%(play)s: %(count)s, %(player)s +%(points)s.": "%(play)s — %(count)s — %(player)s +%(points)s",
    "%(player)s holds %(pips)s, rounds to %(rounded)s: %(change)s": (
        "%(player)s: %(pips)s ≈ %(rounded)s ⇒ %(change)s"
    ),
    "%(end)s (shows %(pips)s)": "%(end)s=%(pips)s",
    "hand": "giv",
    "%(side)s total": "%(side)s summa",
}


class Fake:
    """A language of its own: a few messages re-worded, numbers in brackets, lists with "+"."""

    def gettext(self, text: str) -> str:
        return WORDS.get(text, text)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return self.gettext(singular if count == 1 else plural)

    def number(self, value: int) -> str:
        return f"[{value}]"

    def listed(self, items: Sequence[str]) -> str:
        return " + ".join(items)


def test_a_plays_count_and_points_are_facts_of_its_total() -> None:
    game = game_of(alternate([("6-6", None), ("6-3", "W")]))
    played = [e for e in explain_all(game) if e.kind == "play"][-1]
    total = played.lines[-1]
    assert isinstance(total, Message) and all(isinstance(line, Message) for line in played.lines)
    assert total.text == "total %(count)s, a multiple of five: +%(points)s"
    assert (total.fact("count"), total.fact("points")) == (15, 15)
    assert str(total) == "total 15, a multiple of five: +15"
    assert total.said_in(Fake()) == "summa [15], femtal: +[15]"


def test_a_summary_says_its_nested_messages_in_the_same_language() -> None:
    game = game_of(alternate([("6-6", None), ("6-3", "W")]))
    summary = explain_all(game)[-1].summary
    assert str(summary) == "Bob played 6-3 on W: W 3 + E 12 = 15, Bob +15."
    assert summary.said_in(Fake()) == "Bob lade 6-3 på W — W 3 + E 12 = [15] — Bob +[15]"


def test_a_settlement_line_carries_the_pips_the_rounding_and_the_change() -> None:
    game = game_of(duo_domino({"Bob": 13}))
    settled = next(e for e in explain_all(game) if e.kind == "settle")
    line = next(line for line in settled.lines if str(line).startswith("Bob holds"))
    assert str(line) == "Bob holds 13, rounds to 15: -15"
    assert (line.fact("pips"), line.fact("rounded"), line.fact("change")) == (13, 15, "-15")
    assert line.said_in(Fake()) == "Bob: [13] ≈ [15] ⇒ -15"


def test_a_referee_note_lists_the_ends_in_the_language() -> None:
    # Bob draws against the lead 6-6 and keeps 6-2 to the end.
    data = duo_domino({"Bob": ["6-2", "5-3", "4-2", "2-1"]})
    note = referee_notes(game_of(data), 1)[0]
    assert str(note.message).endswith("which fitted W (shows 6) and E (shows 6).")
    assert note.message.fact("event") == 2
    assert note.message.said_in(Fake()).endswith("which fitted W=[6] + E=[6].")


def test_the_sheet_says_its_words_and_keeps_its_data() -> None:
    sheet = score_sheet(game_of(duo_domino()))
    assert str(sheet.rows[0].ended) == "Ann dominoed"
    english = sheet_csv(sheet).splitlines()
    fake = sheet_csv(sheet, lambda message: message.said_in(Fake())).splitlines()
    assert (
        english[0]
        == "hand,leader,result,Ann plays,Ann settlement,Ann total,Bob plays,Bob settlement,Bob total"
    )
    assert fake[0].startswith("giv,leader,result,Ann plays,Ann settlement,Ann summa,")
    assert fake[1:] == english[1:] and "Ann dominoed" in english[1]
    assert [str(column.heading) for column in PLAYER_COLUMNS][:2] == ["Player", "Games"]
