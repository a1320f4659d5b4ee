"""The score sheet: a game written out the way a table keeps it on paper.

:func:`score_sheet` gives the header facts (players and seats, sides, preset, house rules,
target), one row per hand (who led, how it ended, each side's points from plays, the
settlement and the running total) and the winner. :func:`tally` decomposes a score into the
marks paper players draw, and :func:`sheet_csv` writes the rows as CSV.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime

from scorekeeper.rules.events import Adjust, Claim, NewHand
from scorekeeper.rules.gains import Voided
from scorekeeper.rules.game import Game, Hand, HandResult
from scorekeeper.rules.messages import Message, say, say_n
from scorekeeper.rules.options import HOUSE_RULES, PRESET_NAMES, Preset, default_partners
from scorekeeper.rules.practice import guesses
from scorekeeper.rules.rulebook import Text, in_force_words


@dataclass(frozen=True)
class SheetRule:
    """A house rule in force: its value as the record spells it and the preset's default;
    ``words`` says the value in plain words, as the rules page does."""

    name: str
    title: Message
    value: str
    preset_value: str
    differs: bool
    words: Text = ""


@dataclass(frozen=True)
class SheetHeader:
    """The facts at the top of a score sheet.

    ``players`` are in seat order (seat 1 first); ``sides`` are who keeps a score (the
    players, or the two teams); ``rules`` lists every house rule with its value in force;
    ``partners_differ`` says whether the partnership choice differs from the preset's.
    ``played_on`` is the date the caller gives (the engine does not know dates).
    """

    players: tuple[str, ...]
    sides: tuple[str, ...]
    partners: bool
    partners_differ: bool
    preset: Preset
    preset_title: Message
    rules: tuple[SheetRule, ...]
    target: int
    played_on: date | None = None
    unit: Message | None = None
    """How the scores are kept, in words: "in fives" (house rule units), or None in points."""


@dataclass(frozen=True)
class SheetAdjustment:
    """An adjustment agreed at the table (docs/rules.md 8c), as the sheet lists it under the hands.

    ``index`` is its place in ``game.events`` (from 0), by which the site finds when it was
    entered; ``points`` are in the game's units (negative: a loss) for ``side``, the side of
    the player ``player`` it names."""

    hand: int
    index: int
    player: str
    side: int
    side_name: str
    points: int
    reason: str


@dataclass(frozen=True)
class SheetClaim:
    """A missed count claimed ("Muggins!", docs/rules.md 8b), as the sheet lists it.

    ``claimant`` (of side ``side``) took from ``player``'s ``tile`` the count ``count`` that ``player`` called
    ``called``; ``points`` is what the claim scored the claimant's side, in the game's units
    (0 with ``voided``: get_in or exact_target). ``index`` is the claim's place in
    ``game.events``."""

    hand: int
    index: int
    claimant: str
    side: int
    player: str
    tile: str
    called: int
    count: int
    points: int
    voided: Voided | None = None


@dataclass(frozen=True)
class SheetRow:
    """One hand on the sheet; every tuple has one entry per side, in side order.

    ``result`` is the engine's word ("domino", "blocked", "won" or "open") and ``ended`` the
    same in plain words ("Ann dominoed"); ``went_out`` the seat that dominoed, if any.
    ``settlement`` is None while the hand is not settled (still open, or won at once).
    ``totals`` are the scores after the hand.
    """

    number: int
    leader: int
    leader_name: str
    result: HandResult
    ended: Message
    went_out: int | None
    plays: tuple[int, ...]
    settlement: tuple[int, ...] | None
    totals: tuple[int, ...]
    chosen: Message | None = None
    """How the leader was chosen, where the rules left it to the table and it was recorded
    (by lot, by the draw, at the table, by the highest double and its redraws); None after a
    domino, whose player leads by the rules."""
    adjusted: tuple[int, ...] = ()
    """What adjustments changed each side's score by in the hand (all 0 without any): with
    them, ``plays``, ``settlement`` and ``adjusted`` add up to the change in ``totals``."""
    adjustments: tuple[SheetAdjustment, ...] = ()
    """The hand's adjustments, in the order entered."""
    claims: tuple[SheetClaim, ...] = ()
    """The hand's Muggins! claims, in the order entered (their points are in ``plays``)."""


@dataclass(frozen=True)
class Sheet:
    """A whole score sheet: header, one row per hand, final scores and the winning side."""

    header: SheetHeader
    rows: tuple[SheetRow, ...]
    scores: tuple[int, ...]
    winner: int | None
    guesses: tuple[tuple[str, int, int], ...] = ()
    """Practice mode (docs/rules.md 8e): each player's name, counts guessed right and plays,
    in seat order; empty without the house rule."""
    won_at_time: bool = False
    """Whether a club night's time limit decided the winner (docs/rules.md 8f)."""

    @property
    def ranked_scores(self) -> str:
        """Each side with its score, the highest first: "Ann & Cy 180, Bob & Dee 165"."""
        ranked = sorted(zip(self.header.sides, self.scores, strict=True), key=lambda s: -s[1])
        return ", ".join(f"{side} {score}" for side, score in ranked)

    @property
    def winner_name(self) -> str | None:
        """The winning side's name, or None while nobody has won."""
        return None if self.winner is None else self.header.sides[self.winner]

    @property
    def adjustments(self) -> tuple[SheetAdjustment, ...]:
        """Every adjustment of the game, in the order entered."""
        return tuple(adjustment for row in self.rows for adjustment in row.adjustments)

    @property
    def claims(self) -> tuple[SheetClaim, ...]:
        """Every Muggins! claim of the game, in the order entered."""
        return tuple(claim for row in self.rows for claim in row.claims)

    @property
    def adjusted(self) -> bool:
        """Whether any adjustment was entered: the sheet then has a column for them."""
        return any(row.adjustments for row in self.rows)


def _header(game: Game, played_on: date | None) -> SheetHeader:
    setup = game.setup
    rules = game.rules
    players = len(setup.players)
    entries = []
    for rule in HOUSE_RULES:
        value = str(rules.value(rule.name))
        preset_value = str(rule.default(setup.preset, players))
        entries.append(
            SheetRule(
                rule.name,
                rule.title,
                value,
                preset_value,
                value != preset_value,
                in_force_words(rule, rules),
            )
        )
    partners = setup.in_partnership
    return SheetHeader(
        players=setup.players,
        sides=setup.sides,
        partners=partners,
        partners_differ=partners != default_partners(setup.preset, players),
        preset=setup.preset,
        # The preset's name with this game's target: the preset's own title gives its default
        # target, which the players or the number of players may have changed.
        preset_title=say(
            "%(preset)s; this game to %(target)s",
            preset=PRESET_NAMES[setup.preset],
            target=rules.target,
        ),
        rules=tuple(entries),
        target=rules.target,
        played_on=played_on,
        unit=say("in fives") if rules.in_fives else None,
    )


def _ended(game: Game, hand: Hand) -> Message:
    if hand.result == "domino" and hand.went_out is not None:
        return say("%(player)s dominoed", player=game.players[hand.went_out])
    if hand.result == "blocked":
        return say("blocked")
    if hand.result == "won" and game.winner is not None:
        return say("won by %(side)s", side=game.sides[game.winner])
    return say("in play")


_CHOSEN: dict[str, Message] = {
    "lot": say("by lot"),
    "draw": say("by the draw for the lead"),
    "table": say("at the table"),
}


def _chosen(game: Game, hand: Hand) -> Message | None:
    """How ``hand``'s leader was chosen, in a few words, or None when the rules named them
    (after a domino) or nothing was recorded."""
    if hand.double_lead:
        double = str(hand.plays[0].tile) if hand.plays else None
        if double is None:
            return say("by the highest double")
        if hand.redraws:
            return say_n(
                "by the highest double, %(tile)s, after %(count)s redraw",
                "by the highest double, %(tile)s, after %(count)s redraws",
                hand.redraws,
                tile=double,
            )
        return say("by the highest double, %(tile)s", tile=double)
    begun = game.events[game.hand_starts[hand.number - 1]]
    chosen = begun.chosen if isinstance(begun, NewHand) else None
    return _CHOSEN.get(chosen) if chosen is not None else None


def _corrections(
    game: Game, hand: Hand
) -> tuple[tuple[SheetAdjustment, ...], tuple[SheetClaim, ...]]:
    """The adjustments and the claims of ``hand``, each with its place in the game's events."""
    adjustments: list[SheetAdjustment] = []
    claims: list[SheetClaim] = []
    starts = game.hand_starts
    start = starts[hand.number - 1]
    stop = starts[hand.number] if hand.number < len(starts) else len(game.events)
    moves = iter(move for move in hand.moves if move.kind != "play")
    for index in range(start, stop):
        event = game.events[index]
        if isinstance(event, Adjust):
            move = next(moves)
            adjustments.append(
                SheetAdjustment(
                    hand.number,
                    index,
                    game.players[move.seat],
                    move.side,
                    game.sides[move.side],
                    move.points,
                    move.reason,
                )
            )
        elif isinstance(event, Claim):
            move = next(moves)
            scored = hand.plays[move.play]
            claims.append(
                SheetClaim(
                    hand.number,
                    index,
                    game.players[move.seat],
                    move.side,
                    game.players[scored.player],
                    str(scored.tile),
                    scored.called or 0,
                    scored.count,
                    move.points,
                    scored.claim_voided,
                )
            )
    return tuple(adjustments), tuple(claims)


def sheet_row(game: Game, hand: Hand, totals: tuple[int, ...]) -> SheetRow:
    """The row of ``hand``: who led, how it ended, each side's points, and ``totals`` after."""
    settled = hand.settlement
    corrected = any(move.kind != "play" for move in hand.moves)
    adjustments, claims = _corrections(game, hand) if corrected else ((), ())
    return SheetRow(
        number=hand.number,
        leader=hand.leader,
        leader_name=game.players[hand.leader],
        result=hand.result,
        ended=_ended(game, hand),
        went_out=hand.went_out,
        plays=game.play_points(hand),
        settlement=None if settled is None else settled.changes,
        totals=totals,
        chosen=_chosen(game, hand),
        adjusted=game.adjusted(hand),
        adjustments=adjustments,
        claims=claims,
    )


def score_sheet(
    game: Game, played_on: date | None = None, first_rows: tuple[SheetRow, ...] = ()
) -> Sheet:
    """The score sheet of ``game``; ``played_on`` is shown in the header when given.

    ``first_rows`` are the rows of the game's first hands when the caller has them already
    (a finished hand's row never changes): only the hands after them are read."""
    rows = first_rows + tuple(
        sheet_row(game, hand, game.scores_after(hand)) for hand in game.hands[len(first_rows) :]
    )
    guessed = tuple((game.players[g.seat], g.right, g.plays) for g in guesses(game))
    return Sheet(
        _header(game, played_on),
        rows,
        tuple(game.scores),
        game.winner,
        guessed,
        game.won_at_time,
    )


# -- the tally -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """A score drawn the paper way, largest marks first.

    Of the score's absolute value, each full 50 is a completed ``house``, each remaining
    full 10 a ``circle`` (at most 4), a remaining 5 a ``stroke`` (at most 1), and what is
    left under 5 (possible only when a collected bonus was divided by 5) is ``rest``, which
    paper shows as a number. ``negative`` marks a score below zero. The stroke and the
    circle are S2's: "each line representing 5 points and a circle representing 10".
    """

    negative: bool
    houses: int
    circles: int
    strokes: int
    rest: int

    @property
    def value(self) -> int:
        """The score the marks stand for."""
        total = self.houses * 50 + self.circles * 10 + self.strokes * 5 + self.rest
        return -total if self.negative else total

    @property
    def marks(self) -> tuple[str, ...]:
        """The marks in drawing order: "house" for each 50, "circle" for 10, "stroke" for 5."""
        return ("house",) * self.houses + ("circle",) * self.circles + ("stroke",) * self.strokes


def tally(score: int) -> Tally:
    """The marks for ``score``: 65 is one house, one circle and one stroke."""
    size = abs(score)
    houses, size = divmod(size, 50)
    circles, size = divmod(size, 10)
    strokes, rest = divmod(size, 5)
    return Tally(score < 0, houses, circles, strokes, rest)


# -- CSV -------------------------------------------------------------------------------------


def sheet_columns(sheet: Sheet) -> list[Message]:
    """The CSV header: hand, leader, result, then each side's plays, settlement and total.

    A game in fives says so in each score column's heading ("Ann total in fives"), so a
    spreadsheet of several games never adds fives to points; a game in points keeps the
    headings it always had."""
    columns = [say("hand"), say("leader"), say("result")]
    for side in sheet.header.sides:
        if sheet.header.unit is None:
            columns += [
                say("%(side)s plays", side=side),
                say("%(side)s settlement", side=side),
                say("%(side)s total", side=side),
            ]
        else:
            columns += [
                say("%(side)s plays in fives", side=side),
                say("%(side)s settlement in fives", side=side),
                say("%(side)s total in fives", side=side),
            ]
    if sheet.adjusted or sheet.claims:
        # Only a game with corrections has these, after every column it always had: a reader
        # of those finds them where they were, with the cells they had.
        for side in sheet.header.sides:
            if sheet.header.unit is None:
                columns.append(say("%(side)s adjustments", side=side))
            else:
                columns.append(say("%(side)s adjustments in fives", side=side))
        columns += [say("adjustments"), say("muggins")]
    return columns


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet may take for the start of a formula in a text cell (OWASP's list)."""


def safe_cell(value: str | int) -> str | int:
    """A CSV cell a spreadsheet shows as written: text that could start a formula gets a
    leading ``'`` (a name like ``=HYPERLINK(...)``); numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def utc_text(moment: datetime) -> str:
    """A stored time (naive UTC, or aware) as data: ISO 8601 with a ``Z``,
    "2026-11-22T10:05:00Z"."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="seconds") + "Z"


def adjustment_text(adjustment: SheetAdjustment, when: datetime | None = None) -> Message:
    """An adjustment as a CSV cell says it: "Bob -10: drew while able to play
    (2026-11-22T10:05:00Z)"."""
    facts = {
        "player": adjustment.player,
        "points": f"{adjustment.points:+d}",
        "reason": adjustment.reason,
    }
    if when is None:
        return say("%(player)s %(points)s: %(reason)s", **facts)
    return say("%(player)s %(points)s: %(reason)s (%(when)s)", when=utc_text(when), **facts)


def claim_text(claim: SheetClaim) -> Message:
    """A claim as a CSV cell says it: "Ann's Muggins! on Bob's 6-3 (called 10, count 15):
    +15"."""
    return say(
        "%(claimant)s's Muggins! on %(player)s's %(tile)s (called %(called)s, count "
        "%(count)s): %(points)s",
        claimant=claim.claimant,
        player=claim.player,
        tile=claim.tile,
        called=claim.called,
        count=claim.count,
        points=f"{claim.points:+d}",
    )


def sheet_csv(
    sheet: Sheet,
    words: Callable[[Message], str] = str,
    times: Mapping[int, datetime] | None = None,
) -> str:
    """The sheet's rows as CSV text; a hand not settled has empty settlement cells.

    The headings are said by ``words`` (in English unless the caller gives a language's); the
    cells are data, the same in every language. The text cells hold players' names and the
    reasons of adjustments, so they are neutralised (:func:`safe_cell`).

    A game with adjustments or Muggins! claims has more columns after all the others: each
    side's adjustments in the hand (so that plays, settlement and adjustments add up to the
    change in the total), then the hand's adjustments in words with their reasons and, from
    ``times`` (event index to when it was entered), their times, then its claims in words.
    """
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([safe_cell(words(column)) for column in sheet_columns(sheet)])
    corrected = sheet.adjusted or bool(sheet.claims)
    when = times or {}
    for row in sheet.rows:
        cells: list[str | int] = [row.number, row.leader_name, str(row.ended)]
        for side in range(len(sheet.header.sides)):
            settled = "" if row.settlement is None else row.settlement[side]
            cells += [row.plays[side], settled, row.totals[side]]
        if corrected:
            cells += list(row.adjusted)
            cells.append(
                "; ".join(str(adjustment_text(a, when.get(a.index))) for a in row.adjustments)
            )
            cells.append("; ".join(str(claim_text(claim)) for claim in row.claims))
        writer.writerow([safe_cell(cell) for cell in cells])
    return out.getvalue()
