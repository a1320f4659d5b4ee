"""The table page at the end of a hand, as data and words: who still holds tiles, the tiles
they may hold (a larger set's by number), what each seat's tray shows tapped, and the
settlement of the last settled hand."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING

from scorekeeper.rules import Game, Hand, Tile
from scorekeeper.rules.explain import settled_cells, settled_lines
from scorekeeper.rules.messages import say, say_list
from scorekeeper.rules.tiles import TileSet
from scorekeeper.web import languages
from scorekeeper.web.table.held import tiles_named
from scorekeeper.web.table.scoreboard import SeatView, hand_ending


class EndOfHand:
    """The table view's end-of-hand parts (mixed into ``TableView``, whose fields they read)."""

    game: Game
    settle_values: dict[int, str]
    settle_ticks: dict[int, tuple[str, ...]]

    if TYPE_CHECKING:

        @property
        def hand(self) -> Hand | None: ...

        @property
        def tile_set(self) -> TileSet: ...

    @property
    def holders(self) -> list[SeatView]:
        """The players still holding tiles, whose remaining pips must be entered."""
        hand = self.hand
        if hand is None:
            return []
        return [
            SeatView(seat, name, hand.held[seat], False)
            for seat, name in enumerate(self.game.players)
            if hand.held[seat] > 0
        ]

    @property
    def settle_tiles(self) -> list[Tile]:
        """The tiles a player may still hold: every tile of the set not on the table, highest
        first, as the picker shows them."""
        hand = self.hand
        on_table = hand.layout.on_table if hand is not None else set()
        return [t for t in self.tile_set.tiles if t not in on_table]

    @cached_property
    def settle_groups(self) -> list[tuple[int, list[Tile]]]:
        """A larger set's tiles not on the table by their higher number, highest first (the
        settlement tray shows one number's at a time); numbers with none left out."""
        groups: dict[int, list[Tile]] = {}
        for t in self.settle_tiles:
            groups.setdefault(t.high, []).append(t)
        return list(groups.items())

    def ticked(self, seat: int) -> set[str]:
        """The tiles shown tapped on ``seat``'s tray: those sent, else those the field names."""
        if seat in self.settle_ticks:
            return set(self.settle_ticks[seat])
        return {str(t) for t in tiles_named(self.settle_values.get(seat, ""), self.tile_set)}

    @property
    def ending(self) -> str:
        """How the current hand ended."""
        hand = self.hand
        return "" if hand is None else hand_ending(self.game, hand)

    @cached_property
    def last_settled(self) -> Hand | None:
        """The most recently settled hand, shown until the next one has its lead."""
        game = self.game
        for hand in reversed(game.hands):
            if hand.settlement is not None:
                if hand is game.hand or not (game.hand and game.hand.plays):
                    return hand
                return None
        return None

    @cached_property
    def settlement_lines(self) -> list[str]:
        """The settlement of the last settled hand, one line per player."""
        hand = self.last_settled
        return (
            []
            if hand is None
            else [languages.said(line) for line in settled_lines(self.game, hand)]
        )

    @cached_property
    def tie_note(self) -> str | None:
        """Why play goes on after the hand just settled took two or more sides to the target
        or past it, the highest of them tied (docs/rules.md, Winning): another hand parts
        them. None otherwise."""
        game = self.game
        if self.last_settled is None or game.winner is not None or game.rules.exact_target:
            return None
        target = game.rules.target
        top = max(game.scores)
        tied = [side for side, score in zip(game.sides, game.scores, strict=True) if score == top]
        if top < target or len(tied) < 2:
            return None
        return languages.said(
            say(
                "%(sides)s are tied on %(score)s, at or past the target of %(target)s: the "
                "highest side wins, so another hand is played.",
                sides=say_list(tied),
                score=top,
                target=target,
            )
        )

    @cached_property
    def settlement_cells(self) -> tuple[list[str], str | None]:
        """The last settled hand in short for a table of 5 to 8: a few words a player, and
        the collector's line (or None); see :func:`settled_cells`."""
        hand = self.last_settled
        if hand is None:
            return [], None
        cells, collects = settled_cells(self.game, hand)
        said = languages.said
        return [said(cell) for cell in cells], None if collects is None else said(collects)
