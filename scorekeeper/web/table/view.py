"""What the table page shows, derived from the referee's game: scores, turn, texts, forms.

Every sentence a player reads about the state of the game is written here and in the
modules this view is made of (controls, scoreboard, settlement), from the event log as
replayed by the referee. Templates lay those sentences out and add only the words of the
page itself: headings, labels of controls, help that does not depend on the game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from scorekeeper.rules import ALL_TILES, Claim, Game, Hand, Phase, Play, Settle, Tile
from scorekeeper.rules.entering import (
    CannotTurn,
    call_choices,
    shown_game,
    turnable_lead,
    undo_steps,
)
from scorekeeper.rules.explain import count_line
from scorekeeper.rules.gains import play_points
from scorekeeper.rules.messages import Message
from scorekeeper.rules.tiles import TileSet
from scorekeeper.rules.wording import partnership, signed
from scorekeeper.web import languages
from scorekeeper.web.data.loaded import Door, Loaded
from scorekeeper.web.data.penalties import club_penalties
from scorekeeper.web.drawing.charts import has_chart
from scorekeeper.web.drawing.cribbage import Board
from scorekeeper.web.drawing.cribbage import board as cribbage_board
from scorekeeper.web.drawing.picture import Picture, picture
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.table.clock import ClockView, clock_view
from scorekeeper.web.table.controls import (
    CallView,
    Choice,
    Claimant,
    LeadTurn,
    NoticeKind,
    PickerTile,
    Refused,
    Where,
    describe_play,
    redo_label,
    undo_label,
)
from scorekeeper.web.table.practice import (
    Guessed,
    GuessRow,
    guess_row,
    just_guessed,
)
from scorekeeper.web.table.scoreboard import (
    HandSummary,
    LastScore,
    SeatView,
    SideView,
    hand_summaries,
    last_score,
)
from scorekeeper.web.table.settlement import EndOfHand


@dataclass(frozen=True, slots=True)
class PenaltyButton:
    """A penalty the club agreed, as its button on the play screen: the id the form sends, its
    name (the adjustment's reason) and what it does to the score in the game's units."""

    id: int
    name: str
    points: str


def penalty_buttons(loaded: Loaded) -> tuple[PenaltyButton, ...]:
    """The club's penalties for the game ``loaded``: none outside a club, behind the watch
    link, or while no score may be adjusted (before hand 1 is led, after the game is won)."""
    game, club_id = loaded.game, loaded.row.club_id
    if club_id is None or not loaded.door.editable or game.hand is None or game.winner is not None:
        return ()
    per_point = 5 if game.rules.in_fives else 1
    return tuple(
        PenaltyButton(penalty.id, penalty.name, signed(penalty.amount // per_point))
        for penalty in club_penalties(club_id)
    )


@dataclass
class TableView(EndOfHand):
    """Everything the table partial shows.

    What the page reads several times (the picture, the sides, the hands so far) is worked
    out once per view: a view is made for one render, after the entry it shows.
    """

    door: Door
    game: Game
    seq: int
    version: int = 0
    notice: str | Message | None = None
    notice_kind: NoticeKind = "info"
    refused: Refused | None = None
    selected: Tile | None = None
    chosen_end: str | None = None
    """The open end a larger set's tray shows the tiles of (tapped first), until one is played."""
    chosen_number: int | None = None
    """The number a larger set's tray shows the tiles of before the lead (tapped first)."""
    lead_round: tuple[int, ...] | None = None
    lead_values: dict[int, str] = field(default_factory=dict)
    settle_values: dict[int, str] = field(default_factory=dict)
    settle_ticks: dict[int, tuple[str, ...]] = field(default_factory=dict)
    open_draw: bool = False
    open_choice: bool = False
    redraws: int = 0
    """How many times everyone has drawn one more tile before this lead, nobody holding a
    double (house rule lead: highest-double): kept in the lead form until a leader is tapped."""
    entered: bool = False
    """Whether this page answers an entry just stored (its flash is shown without JavaScript)."""
    redo_label: str | None = None
    """What the Redo button brings back ("Bob's 6-4 on W"), None when redo is not offered."""
    rematch: Door | None = None
    """The rematch of this finished game, behind the same kind of door, once one is started:
    the page moves there by itself (static/js/live.js) and links to it."""
    penalties: tuple[PenaltyButton, ...] = ()
    """The penalties the game's club agreed, offered as one-tap adjustments while a score may
    be adjusted (behind the edit link, in a club's game only)."""
    clock: ClockView | None = None  # a club night table's round clock (table/clock.py)

    @property
    def notice_text(self) -> str | None:
        """The notice in the reader's language (a referee's message is said, text kept)."""
        notice = self.notice
        if notice is None:
            return None
        return languages.said(notice) if isinstance(notice, Message) else str(notice)

    @property
    def editable(self) -> bool:
        """Whether this page may change the game (the edit link) or only show it (watch)."""
        return self.door.editable

    @property
    def refusal_places(self) -> tuple[Where, ...]:
        """Where this phase shows a refusal beside the control that was tapped."""
        places: dict[Phase, tuple[Where, ...]] = {
            "play": ("picker", "actions"),
            "settle": ("settle",),
            "lead": ("lead",),
        }
        # The call strip shows only while the last play's call or claim is the last entry.
        call: tuple[Where, ...] = ("call",) if self.call is not None else ()
        guess: tuple[Where, ...] = ("guess",) if self.guess is not None else ()
        return (*places.get(self.phase, ()), *call, *guess, "undo")

    # -- the scoreboard -------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """``lead``, ``play``, ``settle`` or ``over``."""
        return self.game.phase

    @property
    def adjustable(self) -> bool:
        """Whether a score may be adjusted now (docs/rules.md 8c): once hand 1 is led, at any
        time before the game is won, between a settlement and the next lead too."""
        return self.game.hand is not None and self.game.winner is None

    @property
    def hand(self) -> Hand | None:
        """The current hand."""
        return self.game.hand

    @cached_property
    def shown(self) -> Game:
        """The game as the table may see its scores: without the play whose count is hidden
        until the table guesses it (practice mode), else the game itself."""
        return shown_game(self.game)

    @cached_property
    def guess(self) -> GuessRow | None:
        """Practice mode: the row of guesses while the last play's count is hidden."""
        return guess_row(self.game, self.editable)

    @cached_property
    def guessed(self) -> Guessed | None:
        """Practice mode: the guess just made of the last play's count, right or wrong."""
        return just_guessed(self.game)

    @property
    def shown_count(self) -> int | None:
        """The count of the open ends, None while it is hidden (practice mode)."""
        hand = self.hand
        if hand is None or self.guess is not None:
            return None
        return hand.layout.count()

    @cached_property
    def sides(self) -> list[SideView]:
        """Each side with its score and players, in seat order (the scores without a play
        whose count is hidden)."""
        game, hand = self.game, self.game.hand
        scores = self.shown.scores
        turn = hand.turn if hand is not None and self.phase == "play" else None
        views = []
        for index, name in enumerate(game.sides):
            seats = tuple(
                SeatView(
                    seat,
                    player,
                    hand.held[seat] if hand is not None and self.phase != "lead" else 0,
                    seat == turn,
                )
                for seat, player in enumerate(game.players)
                if game.side_of(seat) == index
            )
            views.append(
                SideView(
                    index,
                    name,
                    scores[index],
                    seats,
                    any(s.to_play for s in seats),
                    game.winner == index,
                )
            )
        return views

    @cached_property
    def turn_name(self) -> str | None:
        """Whose turn it is to play, draw or pass."""
        hand = self.hand
        if hand is None or self.phase != "play":
            return None
        return self.game.players[hand.turn]

    @property
    def boneyard(self) -> int:
        """Tiles left in the boneyard."""
        hand = self.hand
        return 0 if hand is None or self.phase == "lead" else hand.boneyard

    @property
    def drawable(self) -> int:
        """Tiles that can still be drawn."""
        return self.game.drawable() if self.phase == "play" else 0

    @property
    def reserve(self) -> int:
        """Tiles kept in the boneyard that are never drawn."""
        return self.boneyard - self.drawable if self.phase == "play" else 0

    # -- the hand in play ---------------------------------------------------------------

    @property
    def has_lead(self) -> bool:
        """Whether the current hand has its lead tile on the table."""
        hand = self.hand
        return hand is not None and bool(hand.plays)

    @property
    def tile_set(self) -> TileSet:
        """The set the game is played with (house rule set)."""
        return self.game.rules.tile_set

    @property
    def by_number(self) -> bool:
        """Whether the tray offers a number first, then the tiles carrying it: with a set
        larger than double-six, whose 55 or 91 tiles do not fit one screen. After the lead
        the number is an open end's (the tile then goes on that end); before it, any number.
        The 28 tiles of a double-six set are all in the tray at once."""
        return self.tile_set.top > 6

    @property
    def doubles_only(self) -> bool:
        """Whether only doubles can be played now: the lead the highest double makes."""
        hand = self.hand
        return hand is not None and hand.double_lead and not hand.plays

    @cached_property
    def end_choices(self) -> list[Choice]:
        """The open ends a larger set's tray offers first, in reading order, the one whose
        tiles are shown marked chosen (none before the lead, none on a watch page)."""
        hand = self.hand
        if not self.by_number or hand is None or not hand.plays or self.phase != "play":
            return []
        return [
            Choice(end.name, end.shows, end.name == self.chosen_end) for end in hand.layout.ends()
        ]

    @cached_property
    def number_choices(self) -> list[Choice]:
        """The numbers a larger set's tray offers before the lead (0 to the set's top), one of
        them chosen; none when only doubles can lead (they are few enough to show at once)."""
        hand = self.hand
        if not self.by_number or hand is None or hand.plays or self.phase != "play":
            return []
        if self.doubles_only:
            return []
        chosen = self.chosen_number
        return [Choice("", n, n == chosen) for n in range(self.tile_set.top + 1)]

    @property
    def chosen(self) -> Choice | None:
        """The end or number whose tiles a larger set's tray shows, if one was tapped."""
        for choice in (*self.end_choices, *self.number_choices):
            if choice.chosen:
                return choice
        return None

    @cached_property
    def picker(self) -> list[PickerTile]:
        """The tiles of the tray, those on the table disabled, those that fit marked.

        Double-six: all 28 (the 7 doubles for a lead the highest double makes). A larger
        set: the tiles carrying the chosen end's (or number's) number, at most 13, or the
        doubles for a lead the highest double makes; none until a number is chosen."""
        hand = self.hand
        on_table = hand.layout.on_table if hand is not None else set()
        # The highest double leads: only doubles can, so only they are offered.
        doubles_only = self.doubles_only
        if not self.by_number:
            return [
                PickerTile(
                    t, t in on_table, bool(hand and hand.layout.fits(t)) and t not in on_table
                )
                for t in ALL_TILES
                if t.is_double or not doubles_only
            ]
        tiles = self.tile_set.tiles
        if doubles_only:
            return [PickerTile(t, t in on_table, False) for t in tiles if t.is_double]
        chosen = self.chosen
        if chosen is None:
            return []
        # After the lead every tile carrying the end's number fits it; for the lead none is
        # outlined, as in the double-six tray.
        on_end = bool(chosen.name)
        return [
            PickerTile(t, t in on_table, on_end and t not in on_table)
            for t in tiles
            if t.has(chosen.shows)
        ]

    @cached_property
    def picture(self) -> Picture | None:
        """The layout as drawn, the selected tile's ends highlighted (drawn once per page)."""
        hand = self.hand
        if hand is None or self.phase == "lead":
            return None
        return picture(hand.layout, highlight=self.selected_ends)

    @property
    def selected_ends(self) -> list[str]:
        """The open ends the selected tile fits (a larger set: the end chosen first)."""
        if self.selected is None:
            chosen = self.chosen
            return [chosen.name] if chosen is not None and chosen.name else []
        return self.game.fits(self.selected)

    @property
    def selected_ends_text(self) -> str:
        """The open ends the selected tile fits, in words: "W and E"."""
        ends = self.selected_ends
        text = ends[0] if ends else ""
        for end in ends[1:]:
            text = _("%(ends)s and %(end)s", ends=text, end=end)
        return text

    @property
    def last_play_line(self) -> str | None:
        """The count after the last play, end by end, and what it scored: "W 3 + E 12 = 15: Ann +15"."""
        hand = self.hand
        if hand is None or not hand.plays or self.phase == "lead" or self.guess is not None:
            return None
        return count_line(self.game, hand)

    @property
    def last_play_text(self) -> str | None:
        """The last play in words: "Bob's 6-4 on W"."""
        hand = self.hand
        if hand is None or not hand.plays:
            return None
        last = hand.plays[-1]
        return describe_play(self.game, Play(last.player, last.tile), last.end)

    @cached_property
    def call(self) -> CallView | None:
        """The last play's call under house rule muggins, while it is the last entry or the
        claim of it is; None otherwise (and always without the rule)."""
        game, hand = self.game, self.hand
        if not game.rules.muggins or hand is None or not hand.plays or self.phase == "lead":
            return None
        last = game.events[-1]
        scored = hand.plays[-1]
        if isinstance(last, Claim):
            assert scored.claimed_by is not None
            claimant = game.sides[game.side_of(scored.claimed_by)]
        elif isinstance(last, Play):
            claimant = None
        else:
            return None
        points = play_points(scored.count)
        if not points:
            return None
        called = scored.called if scored.called is not None else points
        claimants: tuple[Claimant, ...] = ()
        if scored.missed and claimant is None and game.winner is None:
            claimants = self._claimants(scored.player)
        return CallView(
            game.players[scored.player],
            str(scored.tile),
            scored.count,
            points,
            called,
            call_choices(game) if self.editable else (),
            claimants,
            claimant,
            scored.claimed,
            points // 5 if game.rules.in_fives else points,
        )

    def _claimants(self, player: int) -> tuple[Claimant, ...]:
        """Each opponent side of seat ``player``, claiming by its first player after
        ``player`` in turn order (the one to cry it first)."""
        game = self.game
        own = game.side_of(player)
        found = game.setup.first_seats(player + 1)
        return tuple(
            Claimant(seat, game.sides[side]) for side, seat in found.items() if side != own
        )

    @cached_property
    def lead_turn(self) -> LeadTurn | None:
        """The lead turned round, offered on the edit page until the second tile is played."""
        if not self.editable:
            return None
        try:
            index = turnable_lead(self.game)
        except CannotTurn:
            return None
        lead = self.game.events[index]
        assert isinstance(lead, Play) and self.hand is not None
        arms = self.hand.layout.arms
        return LeadTurn(lead.tile, arms["E"].base, arms["W"].base)

    @property
    def can_draw(self) -> bool:
        """Whether the player to play may draw now."""
        return self.phase == "play" and self.has_lead and self.drawable > 0

    @property
    def can_pass(self) -> bool:
        """A pass is offered only when nothing can be drawn."""
        return self.phase == "play" and self.has_lead and self.drawable == 0

    @cached_property
    def undo_label(self) -> str | None:
        """What the undo button will undo, or None when there is nothing to undo."""
        return undo_label(self.game)

    # -- choosing the leader ------------------------------------------------------------

    @property
    def lead_number(self) -> int:
        """The number of the hand whose leader is to be chosen."""
        return len(self.game.hands) + 1

    @property
    def forced_leader(self) -> int | None:
        """The seat that must lead the next hand (who dominoed), None when chosen by lot."""
        return self.game.next_leader

    @property
    def lead_seats(self) -> list[tuple[int, str]]:
        """The players who draw for the lead in this round (all, or those who tied)."""
        seats = self.lead_round or tuple(range(len(self.game.players)))
        return [(seat, self.game.players[seat]) for seat in seats]

    @property
    def by_double(self) -> bool:
        """Whether the highest double names this lead (house rule lead: highest-double)."""
        rules = self.game.rules
        return (
            self.phase == "lead" and rules.lead == "highest-double" and self.forced_leader is None
        )

    @property
    def can_redraw(self) -> bool:
        """Whether the boneyard gives everyone one more tile again."""
        return self.redraws < self.game.rules.most_redraws

    @property
    def boneyard_after_redraws(self) -> int:
        """The tiles left in the boneyard after the redraws so far."""
        return self.game.rules.boneyard_size - self.redraws * len(self.game.players)

    @property
    def draw_first(self) -> bool:
        """Whether the draw for the lead opens first: asked for, or the house rule's way."""
        by_rule = self.game.rules.lead == "draw-highest" and not self.open_choice
        return self.open_draw or by_rule or self.lead_round is not None

    # -- the game as a whole ------------------------------------------------------------

    @property
    def has_score_chart(self) -> bool:
        """Whether the game has a chart to draw (a tile is down), without drawing it; not while
        a count is hidden (practice mode), whose points the chart would show."""
        return has_chart(self.game) and self.guess is None

    @cached_property
    def cribbage(self) -> Board:
        """The scores as a cribbage board (pegs at each side's score and previous score)."""
        return cribbage_board(self.shown)

    @cached_property
    def hand_summaries(self) -> tuple[HandSummary, ...]:
        """One summary row per hand."""
        return hand_summaries(self.shown)

    @property
    def hand_tally(self) -> list[tuple[str, int]]:
        """Each side and the points it has made in the current hand so far: by plays and
        claims, and adjustments agreed at the table."""
        game = self.shown
        hand = game.hand
        if hand is None or self.phase == "lead":
            return [(side, 0) for side in game.sides]
        made = zip(game.play_points(hand), game.adjusted(hand), strict=True)
        return list(zip(game.sides, (p + a for p, a in made), strict=True))

    @property
    def last_points(self) -> int | None:
        """What the last play of the current hand scored (None before the lead)."""
        hand = self.hand
        if hand is None or not hand.plays or self.phase == "lead" or self.guess is not None:
            return None
        return hand.plays[-1].points

    @cached_property
    def last_score(self) -> LastScore | None:
        """What the last entry scored: a play (even scoring nothing) or a settlement."""
        return last_score(self.game)

    @property
    def bring_into_view(self) -> str | None:
        """The news the last entry made, to bring into view if it is out of sight (a reader
        scrolled down the page): the winner, the settlement, or the end of a hand with its
        form for what the players still hold."""
        if self.phase == "over":
            return "winner"
        if self.phase == "settle":
            return "hand-over"
        steps = undo_steps(self.game)
        if steps and isinstance(self.game.events[-steps], Settle):
            return "settlement"
        return None

    @property
    def winner_name(self) -> str | None:
        """The winning side, once there is one."""
        game = self.game
        return None if game.winner is None else game.sides[game.winner]

    @property
    def winner_text(self) -> str | None:
        """The winning side's cheer: "Ann wins!", "Ann & Cy win!" (a partnership is two)."""
        name = self.winner_name
        if name is None:
            return None
        if partnership(name):
            return _("%(names)s win!", names=name)
        return _("%(name)s wins!", name=name)

    @property
    def title(self) -> str:
        """The page's title: the sides, "Ann v Bob", and whether it is only watched."""
        text = languages.versus(self.game.sides)
        return text if self.editable else _("%(game)s (watching)", game=text)


def table_view(loaded: Loaded, **kwargs: Any) -> TableView:
    """The table of a stored game, as seen through the door it was reached by (a board's
    card, given ``clock=None``, shows the board's clock and looks up none of its own)."""
    kwargs.setdefault("clock", clock_view(loaded) if "clock" not in kwargs else None)
    redo = redo_label(loaded) if loaded.door.editable else None
    rematch = loaded.rematch if loaded.game.phase == "over" else None
    return TableView(
        loaded.door,
        loaded.game,
        loaded.seq,
        loaded.version,
        redo_label=redo,
        rematch=rematch,
        penalties=penalty_buttons(loaded),
        **kwargs,
    )
