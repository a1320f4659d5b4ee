"""The pages that settle an argument and go on paper: the rulebook, the log with why each entry
was judged as it was, the referee notes, and the score sheet (printable, blank, and as CSV).

Every word about the rules comes from the engine (``rulebook``, ``explain``, ``notes``,
``sheet``); these views only load the game and lay it out.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, Literal

from flask import Blueprint, Flask, Response, render_template, request, url_for

from scorekeeper.rules import Draw, Event, Game, Hand, NewHand, Pass, Play, Settle
from scorekeeper.rules.basics import basics_of, refusal_anchor
from scorekeeper.rules.entering import shown_game
from scorekeeper.rules.events import Adjust, Claim, Guess
from scorekeeper.rules.explain import Explanation, explain_all, explain_hand, hand_spans
from scorekeeper.rules.messages import Message
from scorekeeper.rules.notes import Note, referee_notes
from scorekeeper.rules.options import HOUSE_RULES, PRESET_TITLES, PRESETS
from scorekeeper.rules.rulebook import linked_titles, rulebook
from scorekeeper.rules.setup import MOST_PLAYERS
from scorekeeper.rules.sheet import (
    Sheet,
    SheetRow,
    Tally,
    score_sheet,
    sheet_csv,
    sheet_row,
    tally,
)
from scorekeeper.web import languages
from scorekeeper.web.bounded import Derived
from scorekeeper.web.data.doors import DOORS, load_or_404
from scorekeeper.web.data.games import download_name, undone_events
from scorekeeper.web.data.loaded import Door, Loaded
from scorekeeper.web.languages import LANGUAGES, ngettext
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l

bp = Blueprint("paper", __name__)

Said = Message | str
"""What the referee says (a message, said with ``|say``), or text said as it is."""

BLANK_SIDES = tuple(range(2, MOST_PLAYERS + 1))
BLANK_ROWS = 18
BLANK_ROWS_WIDE = 36
"""Rows of a blank sheet for 5 to 8 sides, printed across the page turned on its side: two
pages of A4 or US Letter (the rows the first page holds under the sheet's head, the rest on
the second under the column heads again): one page holds only 12, and a slow table of 8
playing to 200 needs more."""
BAD_SIDES = _l(
    "A blank score sheet is for 2 to 8 sides (players, or two teams): "
    "ask for /sheets/blank?sides=2 to 8."
)


# -- the log -------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogEntry:
    """One entry of the log: how it was judged, and the referee notes that name it.

    ``steps`` are a play's count, end by end, up to the total (shown on one line);
    ``lines`` everything else the explanation says. ``notes`` are the notes about this draw
    or pass; ``hand_notes`` (on a settlement only) every note of the hand it settles.
    """

    explanation: Explanation
    steps: tuple[Said, ...]
    lines: tuple[Said, ...]
    notes: tuple[Note, ...]
    hand_notes: tuple[Note, ...]

    @property
    def anchor(self) -> str:
        """The entry's id on the log page: "e12"."""
        return f"e{self.explanation.index}"


@dataclass(frozen=True)
class LogHand:
    """The entries of one hand, in order."""

    number: int
    entries: tuple[LogEntry, ...]


def split_steps(explanation: Explanation) -> tuple[tuple[Said, ...], tuple[Said, ...]]:
    """A play's count steps (its ends and the total) and the lines after them; others: no
    steps. The referee says how many lines the count takes (``counted``)."""
    lines: tuple[Said, ...] = explanation.lines
    return lines[: explanation.counted], lines[explanation.counted :]


def _log_hand(number: int, explanations: list[Explanation], notes: list[Note]) -> LogHand:
    """Hand ``number`` of the log from its explanations and its referee notes."""
    by_index: dict[int, list[Note]] = {}
    for note in notes:
        by_index.setdefault(note.index, []).append(note)
    entries = []
    for explanation in explanations:
        steps, lines = split_steps(explanation)
        settled = explanation.kind == "settle"
        entries.append(
            LogEntry(
                explanation,
                steps,
                lines,
                tuple(by_index.get(explanation.index, ())),
                tuple(notes) if settled else (),
            )
        )
    return LogHand(number, tuple(entries))


def log_hand(game: Game, number: int) -> LogHand:
    """Hand ``number`` (from 1) of the log, each entry with its explanation and referee notes;
    it costs that hand, however long the game."""
    return _log_hand(number, explain_hand(game, number), referee_notes(game, number))


def log_hands(game: Game) -> list[LogHand]:
    """The whole log, hand by hand, each entry with its explanation and referee notes."""
    explained: dict[int, list[Explanation]] = {}
    for explanation in explain_all(game):
        explained.setdefault(explanation.hand, []).append(explanation)
    return [
        _log_hand(number, explanations, referee_notes(game, number))
        for number, explanations in explained.items()
    ]


@dataclass(frozen=True)
class UndoneEntry:
    """An entry that was undone, shown struck through in the log where it was entered, with
    when a redo brought it back (it then shows again, live, just after)."""

    summary: str
    undone_at: datetime
    redone_at: datetime | None = None


def undone_summary(game: Game, event: Event) -> str:
    """An undone event in words, without the state it was judged in: "Bob played 6-4 on W"
    (in the page's language; names, tiles and ends as they are)."""
    players = game.players

    def name(seat: int) -> str:
        return players[seat] if 0 <= seat < len(players) else _("seat %(number)s", number=seat + 1)

    if isinstance(event, Play):
        if event.end:
            return _(
                "%(player)s played %(tile)s on %(end)s",
                player=name(event.player),
                tile=str(event.tile),
                end=str(event.end),
            )
        return _("%(player)s played %(tile)s", player=name(event.player), tile=str(event.tile))
    if isinstance(event, Draw):
        return ngettext(
            "%(player)s drew %(num)d tile",
            "%(player)s drew %(num)d tiles",
            event.count,
            player=name(event.player),
        )
    if isinstance(event, Pass):
        return _("%(player)s passed", player=name(event.player))
    if isinstance(event, NewHand):
        return _("%(player)s to lead the next hand", player=name(event.leader))
    if isinstance(event, Claim):
        return _("%(player)s's Muggins!", player=name(event.player))
    if isinstance(event, Guess):
        return _(
            "%(player)s's count guessed %(points)s", player=name(event.player), points=event.points
        )
    if isinstance(event, Adjust):
        return _(
            "Adjusted: %(player)s %(points)s (%(reason)s)",
            player=name(event.player),
            points=f"{event.points:+d}",
            reason=event.reason,
        )
    return _("The settlement of the hand")


def undone_in_log(loaded: Loaded, shown: range | None = None) -> dict[int, list[UndoneEntry]]:
    """The undone entries by where the log shows them: after the live entry with that index
    (-1: before the first), in the order they were entered; with ``shown`` (one hand's
    indices), only those shown in that hand."""
    placed: dict[int, list[UndoneEntry]] = {}
    for undone in undone_events(loaded.row, shown):
        entry = UndoneEntry(
            undone_summary(loaded.game, undone.event), undone.undone_at, undone.redone_at
        )
        placed.setdefault(undone.after - 1, []).append(entry)
    return placed


def last_index(game: Game, kind: Literal["play", "settle"]) -> int | None:
    """The index in the log of the last play ("play") or settlement ("settle"), or None."""
    wanted = Play if kind == "play" else Settle
    for index in range(len(game.events) - 1, -1, -1):
        if isinstance(game.events[index], wanted):
            return index
    return None


@bp.app_template_global()
def game_url(endpoint: str, door: Door, **values: Any) -> str:
    """The URL of a game's page behind ``door`` (the log, the sheet: "paper.log")."""
    return url_for(endpoint, door=door.kind, key=door.key, **values)


@bp.app_template_global()
def why_url(door: Door, index: int | None) -> str:
    """The log page at the hand of entry ``index``, that entry open (its latest hand when None)."""
    if index is None:
        return game_url("paper.log", door)
    return game_url("paper.log", door, open=index, _anchor=f"e{index}")


@bp.app_template_global()
def why_index(game: Game, kind: Literal["play", "settle"]) -> int | None:
    """For templates: the log index of the game's last play or settlement."""
    return last_index(game, kind)


@bp.app_template_global()
def hand_notes(game: Game, hand_number: int) -> list[Note]:
    """For templates: the referee notes of a settled hand (none without tiles held).

    A finished hand's are worked out once (they replay the hand) and kept with it."""
    hand = game.hands[hand_number - 1]
    if hand is game.hand:
        return referee_notes(game, hand_number)
    return _NOTES.of(hand, lambda: referee_notes(game, hand_number))


NOTES_KEPT = 1024
"""Finished hands whose notes are kept (the hand shown settled above the next one's table)."""
_NOTES: Derived[Hand, list[Note]] = Derived(NOTES_KEPT)


@bp.app_template_global()
def rule_url(rule: str, door: Door | None = None) -> str:
    """Where a rule id is explained: the game's rules page, or the general one."""
    anchor = refusal_anchor(rule)
    if door is None:
        return url_for("paper.rules", _anchor=anchor)
    return game_url("paper.game_rules", door, _anchor=anchor)


_LINKED = linked_titles()


@bp.app_template_global()
def why_rules(game: Game, explanation: Explanation) -> list[tuple[str, Said]]:
    """The rules a log entry is about, for its Why? to link to on the game's rules page:
    (anchor, title) of the count and the spinner for a play, of the settlement of the game's
    preset for a settlement, of winning for the entry that decided the game (docs/rules.md 10)."""
    event = game.events[explanation.index]
    hand = game.hands[explanation.hand - 1] if explanation.hand <= len(game.hands) else None
    double = isinstance(event, Play) and event.tile.is_double
    end = event.end if isinstance(event, Play) else None
    on_arm = end is not None and (end in ("N", "S") or ":" in end)
    anchors = basics_of(
        explanation.kind,
        game.rules.preset,
        double=double,
        spinner_end=on_arm or (double and game.rules.spinners != "none"),
        blocked=hand is not None and hand.result == "blocked",
        decided=explanation.winner is not None,
    )
    return [(anchor, _LINKED[anchor]) for anchor in anchors]


WHOLE_LOG = "all"
"""``?hand=all``: the whole log on one page, to print."""
_HAND_NUMBER = re.compile(r"[1-9][0-9]{0,5}")


@dataclass(frozen=True)
class LogPages:
    """Which part of the log a page shows: hand ``shown`` of ``count`` (None: every hand)."""

    shown: int | None
    count: int

    @property
    def previous(self) -> int | None:
        """The hand before the one shown, if any."""
        return self.shown - 1 if self.shown is not None and self.shown > 1 else None

    @property
    def next(self) -> int | None:
        """The hand after the one shown, if any."""
        return self.shown + 1 if self.shown is not None and self.shown < self.count else None


def hand_to_show(asked: str | None, opened: int | None, spans: list[range]) -> int | None:
    """The hand the log opens at: the one asked for (``?hand=N``), else the one holding the
    entry to open (``?open=I``), else the last; None when ``asked`` names no hand of the game.

    Without hands (nothing entered yet) that is hand 0, the empty log.
    """
    if asked is not None:
        if _HAND_NUMBER.fullmatch(asked) and int(asked) <= len(spans):
            return int(asked)
        return None
    if opened is not None and spans and 0 <= opened < spans[-1].stop:
        return bisect_right([span.start for span in spans], opened)
    return len(spans)


def no_such_hand(count: int) -> tuple[str, int]:
    """The 404 page for a ``?hand=`` that names no hand of the game, saying which there are."""
    if count == 0:
        explanation = _(
            "This game's log has no such hand: nothing has been entered yet. Open the log "
            "without ?hand= for the latest hand, or with ?hand=all for the whole log."
        )
    elif count == 1:
        explanation = _(
            "This game's log has no such hand: it has hand 1 only. Open the log without "
            "?hand= for the latest hand, or with ?hand=all for the whole log."
        )
    else:
        explanation = _(
            "This game's log has no such hand: it has hands 1 to %(count)s. Open the log "
            "without ?hand= for the latest hand, or with ?hand=all for the whole log.",
            count=count,
        )
    page = render_template("error.html", code=404, title=_("Not found"), explanation=explanation)
    return page, 404


@bp.get(f"/{DOORS}/<key:key>/log")
def log(door: str, key: str) -> str | tuple[str, int]:
    """The game's log, one hand a page; every entry opens to show how the referee judged it.

    The page shows the latest hand, ``?hand=N`` hand N, ``?open=I`` the hand of entry I with
    that entry open (the table's "Why?" links), ``?hand=all`` every hand (to print). A hand
    is explained alone, so a page costs one hand however long the game has run.
    """
    loaded = load_or_404(key, door)
    # Practice mode: a count the table has not guessed yet is not in the log until it is.
    game = shown_game(loaded.game)
    opened = request.args.get("open", type=int)
    asked = request.args.get("hand")
    spans = hand_spans(game)
    if asked == WHOLE_LOG:
        hands = log_hands(game)
        undone = undone_in_log(loaded)
        pages = LogPages(None, len(spans))
    else:
        shown = hand_to_show(asked, opened, spans)
        if shown is None:
            return no_such_hand(len(spans))
        hands = [log_hand(game, shown)] if shown else []
        undone = undone_in_log(loaded, spans[shown - 1] if shown else range(0))
        pages = LogPages(shown, len(spans))
    adjusted = [
        entry.explanation.index
        for hand in hands
        for entry in hand.entries
        if entry.explanation.kind == "adjust"
    ]
    return render_template(
        "log.html",
        door=loaded.door,
        game=game,
        hands=hands,
        undone=undone,
        opened=opened,
        pages=pages,
        entered=_entered_at(loaded, adjusted),
    )


# -- the rulebook --------------------------------------------------------------------------


@bp.get("/rules")
def rules() -> str:
    """Every preset, every house rule and its values, and every rule id a refusal names."""
    return render_template("rules.html", book=rulebook(), game=None, door=None)


@bp.get(f"/{DOORS}/<key:key>/rules")
def game_rules(door: str, key: str) -> str:
    """The preset and house rules a game is played by, marking what differs from the preset."""
    loaded = load_or_404(key, door)
    game = loaded.game
    book = rulebook(game.rules, game.setup.partners)
    return render_template("rules.html", book=book, game=game, door=loaded.door)


# -- the score sheet -----------------------------------------------------------------------


def played_on(loaded: Loaded) -> date:
    """The day the game was started (UTC)."""
    return loaded.row.created_at.date()


@bp.app_template_filter("tally_words")
def tally_words(marks: Tally) -> str:
    """A tally in words for screen readers: "65, drawn as 1 house, 1 circle and 1 stroke"."""
    parts = []
    if marks.houses:
        parts.append(ngettext("%(num)d house", "%(num)d houses", marks.houses))
    if marks.circles:
        parts.append(ngettext("%(num)d circle", "%(num)d circles", marks.circles))
    if marks.strokes:
        parts.append(ngettext("%(num)d stroke", "%(num)d strokes", marks.strokes))
    if marks.rest:
        parts.append(_("%(rest)s more", rest=marks.rest))
    if not parts:
        return str(marks.value)
    return _("%(value)s, drawn as %(marks)s", value=marks.value, marks=languages.said_list(parts))


# -- a sheet in another language --------------------------------------------------------------


SHEET_LANGUAGE = "lang"
"""``?lang=sv``: the sheet (its page and its CSV) said in that language, not the site's, so a
club can hand out sheets in the language of the table."""


def _no_such_language() -> tuple[str, int]:
    """The 404 page for a ``?lang=`` the site does not speak, saying which it does."""
    choices = ", ".join(f"?{SHEET_LANGUAGE}={code} ({name})" for code, name in LANGUAGES.items())
    explanation = _(
        "A sheet can be printed in the languages of this site only: %(choices)s.",
        choices=choices,
    )
    page = render_template("error.html", code=404, title=_("Not found"), explanation=explanation)
    return page, 404


def asked_language() -> str | None:
    """The language ``?lang=`` asks for; None without one, "" for one the site does not speak."""
    code = request.args.get(SHEET_LANGUAGE)
    if code is None:
        return None
    return code if code in LANGUAGES else ""


def in_language(code: str | None) -> AbstractContextManager[None]:
    """Say what is inside in ``code``, or in the page's own language when None."""
    return nullcontext() if code is None else languages.speaking(code)


@bp.app_template_global()
def sheet_languages(endpoint: str, **values: Any) -> list[dict[str, object]]:
    """For templates: a sheet's page in each language (``?lang=``), each named in its own
    words, the one this page is said in marked ``current``."""
    said = languages.current()
    return [
        {
            "code": code,
            "name": name,
            "href": url_for(endpoint, **{**values, SHEET_LANGUAGE: code}),
            "current": code == said,
        }
        for code, name in LANGUAGES.items()
    ]


# -- the score sheet pages -------------------------------------------------------------------


SHEET_ROWS_KEPT = 1024
"""Games whose finished hands' sheet rows are kept (one entry per game and number of hands)."""
_SHEET_ROWS: Derived[Hand, tuple[SheetRow, ...]] = Derived(SHEET_ROWS_KEPT)


def _score_sheet(loaded: Loaded) -> Sheet:
    """The game's score sheet, its finished hands' rows made once, as each hand ends (in
    practice mode without a play whose count is hidden)."""
    game = shown_game(loaded.game)

    def add(rows: tuple[SheetRow, ...], hand: Hand) -> tuple[SheetRow, ...]:
        return (*rows, sheet_row(game, hand, game.scores_after(hand)))

    finished = _SHEET_ROWS.grown(game.hands[:-1], (), add)
    return score_sheet(game, played_on(loaded), finished)


def _adjustment_times(loaded: Loaded, paper: Sheet) -> dict[int, datetime]:
    """When each adjustment on the sheet was entered, by its index in the game's events."""
    return _entered_at(loaded, (adjustment.index for adjustment in paper.adjustments))


def _entered_at(loaded: Loaded, indices: Iterable[int]) -> dict[int, datetime]:
    """When the game's events at ``indices`` were entered: from the rows it was replayed
    from (a page's game always is), without reading them again."""
    assert loaded.replayed is not None, "a page's game is loaded with its stored rows"
    return loaded.replayed.entered_at(indices)


@bp.get(f"/{DOORS}/<key:key>/sheet")
def sheet(door: str, key: str) -> str | tuple[str, int]:
    """The printable score sheet: header, one row per hand, the winner and the tallies.

    ``?lang=sv`` prints it in Svenska (any of the site's languages) whatever the site's."""
    loaded = load_or_404(key, door)
    code = asked_language()
    if code == "":
        return _no_such_language()
    paper = _score_sheet(loaded)
    tallies = [tally(score) for score in paper.scores]
    with in_language(code):
        return render_template(
            "sheet.html",
            door=loaded.door,
            started_at=loaded.row.created_at,
            sheet=paper,
            tallies=tallies,
            game=shown_game(loaded.game),
            sheet_lang=code,
            entered=_adjustment_times(loaded, paper),
        )


@bp.get(f"/{DOORS}/<key:key>/sheet.csv")
def sheet_as_csv(door: str, key: str) -> Response | tuple[str, int]:
    """The score sheet's rows as CSV: one row per hand, each side's plays, settlement, total.

    The headings are in the page's language (``?lang=`` as on the sheet), the cells never."""
    loaded = load_or_404(key, door)
    code = asked_language()
    if code == "":
        return _no_such_language()
    with in_language(code):
        # Headings in the page's language, cells as the engine writes them (English).
        paper = _score_sheet(loaded)
        body = sheet_csv(paper, languages.said, _adjustment_times(loaded, paper))
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(loaded.row)}-sheet.csv"'
    )
    if code is not None:
        response.headers["Content-Language"] = code
    return response


@bp.get("/sheets/blank")
def blank_sheet() -> tuple[str, int]:
    """An empty score sheet for 2 to 8 sides, to fill in by hand (``?lang=`` as on a game's
    sheet); 5 to 8 print across the page turned on its side, as a game's sheet does."""
    code = asked_language()
    if code == "":
        return _no_such_language()
    sides = request.args.get("sides", "2")
    with in_language(code):
        if sides not in [str(n) for n in BLANK_SIDES]:
            page = render_template(
                "error.html", code=400, title=_("Bad request"), explanation=str(BAD_SIDES)
            )
            return page, 400
        count = int(sides)
        return render_template(
            "blank_sheet.html",
            sides=count,
            choices=BLANK_SIDES,
            rows=BLANK_ROWS if count <= 4 else BLANK_ROWS_WIDE,
            presets=[(preset, PRESET_TITLES[preset]) for preset in PRESETS],
            house_rules=HOUSE_RULES,
            sheet_lang=code,
        ), 200


def init_app(app: Flask) -> None:
    """Register the pages."""
    app.register_blueprint(bp)
