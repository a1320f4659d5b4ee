"""The table picture in words: its title and the description a screen reader reads, kept as
data in the cached scene and said when read, in the reader's language."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from scorekeeper.rules.layout import Layout
from scorekeeper.rules.tiles import Tile
from scorekeeper.web.drawing.tilenames import tile_spoken
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import ngettext


@dataclass(frozen=True, slots=True)
class OpenArm:
    """An open end as the description reads it: its tiles from the inside out, its number."""

    name: str
    tiles: tuple[Tile, ...]
    shows: int
    fits: bool
    """Whether the chosen tile fits this end (it is highlighted)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What the picture says in words, as data: said when read, in the reader's language."""

    tiles: int
    count: int
    lead: Tile | None = None
    lead_spinner: bool = False
    arms: tuple[OpenArm, ...] = ()
    closed: tuple[tuple[str, str, Tile], ...] = ()
    """The spinners whose arms are not open yet: (north end, south end, tile)."""

    @property
    def title(self) -> str:
        """The table in a few words: "The table: 7 tiles, count 17"."""
        if self.lead is None:
            return _("The table is empty")
        return ngettext(
            "The table: %(num)d tile, count %(count)s",
            "The table: %(num)d tiles, count %(count)s",
            self.tiles,
            count=self.count,
        )

    def lines(self) -> list[str]:
        """One line for the lead, one per open end (its tiles from the inside out, the number
        it shows), one per spinner whose arms are not open yet, and the count."""
        if self.lead is None:
            return [_("No tile is on the table yet.")]
        lead = tile_spoken(self.lead)
        if self.lead_spinner:
            lines = [_("Lead: %(tile)s, the spinner.", tile=lead)]
        else:
            lines = [_("Lead: %(tile)s.", tile=lead)]
        lines += [_arm_line(arm) for arm in self.arms]
        for north, south, tile in self.closed:
            lines.append(
                _(
                    "%(north)s and %(south)s open once both sides of the spinner, %(tile)s, "
                    "are covered.",
                    north=north,
                    south=south,
                    tile=tile_spoken(tile),
                )
            )
        count = self.count
        if count and count % 5 == 0:
            lines.append(_("Count: %(count)s (scores %(count)s).", count=count))
        else:
            lines.append(_("Count: %(count)s (no score).", count=count))
        return lines


def _arm_line(arm: OpenArm) -> str:
    """An open end in words: "W arm: six-three, double three; open end shows 3"."""
    if not arm.tiles:
        if arm.fits:
            return _(
                "%(end)s arm: empty; open end shows %(number)s (the chosen tile fits here).",
                end=arm.name,
                number=arm.shows,
            )
        return _("%(end)s arm: empty; open end shows %(number)s.", end=arm.name, number=arm.shows)
    tiles = ", ".join(tile_spoken(tile) for tile in arm.tiles)
    if arm.fits:
        return _(
            "%(end)s arm: %(tiles)s; open end shows %(number)s (the chosen tile fits here).",
            end=arm.name,
            tiles=tiles,
            number=arm.shows,
        )
    return _(
        "%(end)s arm: %(tiles)s; open end shows %(number)s.",
        end=arm.name,
        tiles=tiles,
        number=arm.shows,
    )


def facts_of(layout: Layout, highlight: Collection[str]) -> Facts:
    """What the description of ``layout`` says: the lead, each open end (its tiles from the
    inside out, the number it shows), each spinner whose arms are not open yet, the count."""
    lead = layout.lead
    assert lead is not None
    arms = tuple(
        OpenArm(
            end.name,
            tuple(placed.tile for placed in layout.arms[end.name].tiles),
            end.shows,
            end.name in highlight,
        )
        for end in layout.ends()
    )
    closed = tuple(
        (spinner.ends[0], spinner.ends[1], spinner.tile)
        for spinner in layout.spinners
        if not spinner.opened
    )
    return Facts(len(layout), layout.count(), lead.tile, lead.spinner, arms, closed)
