"""The night's forms: opening a night (format and house rules, who is here), a walk-in, a
leaver, swapping two seats, and the buttons that seat, start and end.

The house rules are the new-game form's fields, made from the one registry
(``rules/options.py``) by ``house_rule_field``: a rule added there is a field here too.
"""

from __future__ import annotations

from functools import partial

from wtforms import (
    BooleanField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    SubmitField,
)

# types-WTForms describes WTForms 3.2; SelectChoice (3.3) is not in it yet, so it is Any here.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined,unused-ignore]
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from scorekeeper.rules import HOUSE_RULES, PRESETS
from scorekeeper.rules.names import MAX_NAME
from scorekeeper.rules.nights.format import MOST_MINUTES, MOST_ROUNDS, TieBreak
from scorekeeper.rules.options import PRESET_TITLES, Preset
from scorekeeper.web.forms import SiteForm, plain_name
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.languages import lazy_said, said
from scorekeeper.web.table import house_rule_field

TOO_LONG = _l("Field cannot be longer than %(max)d characters.")


def _stripped(text: str | None) -> str | None:
    return text.strip() if isinstance(text, str) else text


def _preset_title(preset: Preset) -> str:
    return said(PRESET_TITLES[preset])


TIE_BREAK_CHOICES = [
    SelectChoice("", _l("None")),
    SelectChoice("difference", _l("Points for minus points against")),
    SelectChoice("total", _l("Total points")),
    SelectChoice("head-to-head", _l("Head to head")),
]


def _tie_break(label: str, default: str) -> SelectField:
    return SelectField(label, choices=TIE_BREAK_CHOICES, default=default)


def _walk_in(label: str) -> StringField:
    return StringField(
        label,
        filters=[_stripped],
        validators=[Optional(), Length(max=MAX_NAME, message=TOO_LONG), plain_name],
    )


class NightForm(SiteForm):
    """A new night: who is here, the format and the house rules of every table."""

    present = SelectMultipleField(
        _l("Who is here"),
        coerce=int,
        choices=[],
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
        validate_choice=True,
    )
    walk_in = _walk_in(_l("A walk-in (not on the roster yet)"))
    table_size = RadioField(
        _l("Players per table"),
        coerce=int,
        default=4,
        choices=[
            SelectChoice(2, _l("2: head to head, paired Swiss by standing")),
            SelectChoice(3, _l("3: each for themselves")),
            SelectChoice(4, _l("4: two partnerships, partners drawn each round")),
        ],
    )
    rounds = IntegerField(
        _l("Rounds"),
        default=4,
        validators=[InputRequired(), NumberRange(min=1, max=MOST_ROUNDS)],
    )
    minutes = IntegerField(
        _l("Minutes a round"),
        default=30,
        validators=[InputRequired(), NumberRange(min=5, max=MOST_MINUTES)],
        description=_l("Kept with the night for the round's clock."),
    )
    match = RadioField(
        _l("Each table plays"),
        default="one-game",
        choices=[
            SelectChoice("one-game", _l("One game")),
            SelectChoice("best-of-3", _l("The best 2 of 3 games (the next game is the Rematch)")),
        ],
    )
    at_limit = RadioField(
        _l("At the time limit"),
        default="finish-hand",
        choices=[
            SelectChoice("finish-hand", _l("Finish the hand being played; the higher side wins")),
            SelectChoice("to-target", _l("Play on to the target")),
        ],
    )
    tie1 = _tie_break(_l("First tie-break"), "difference")
    tie2 = _tie_break(_l("Second tie-break"), "total")
    tie3 = _tie_break(_l("Third tie-break"), "head-to-head")
    preset = SelectField(
        _l("Preset"),
        choices=[SelectChoice(p, lazy_said(partial(_preset_title, p))) for p in PRESETS],
        default=PRESETS[0],
    )
    target = IntegerField(
        _l("Target"), validators=[InputRequired(), NumberRange(min=1, max=1000)], default=200
    )
    load = SubmitField(_l("Load the preset's defaults"))
    open_night = SubmitField(_l("Open the night"))
    # One field per house rule of the registry (but the target, above), added below.

    @property
    def rule_fields(self) -> list[object]:
        """The house rules' fields, in the registry's order."""
        return [self[rule.name] for rule in HOUSE_RULES if rule.name != "target"]

    @property
    def tie_breaks(self) -> tuple[TieBreak, ...]:
        """The tie-breaks chosen, in order, the "None"s left out."""
        chosen = (self.tie1.data, self.tie2.data, self.tie3.data)
        return tuple(c for c in chosen if c)

    def validate_tie3(self, field: object) -> None:
        """A tie-break chosen twice is a slip."""
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            raise ValidationError(_("Each tie-break once: choose another or None."))


for _rule in HOUSE_RULES:
    if _rule.name != "target":
        setattr(NightForm, _rule.name, house_rule_field(_rule))


class WalkInForm(SiteForm):
    """A player who arrives once the night has begun."""

    name = StringField(
        _l("A walk-in"),
        filters=[_stripped],
        validators=[InputRequired(), Length(max=MAX_NAME, message=TOO_LONG), plain_name],
    )


class LeaveForm(SiteForm):
    """A player who goes home."""

    player = IntegerField("player", validators=[InputRequired(), NumberRange(min=1)])


class SwapForm(SiteForm):
    """Two players of a round not started, to exchange seats."""

    one = StringField(_l("Swap"), validators=[InputRequired(), Length(max=MAX_NAME)])
    other = StringField(_l("with"), validators=[InputRequired(), Length(max=MAX_NAME)])


class SeatForm(SiteForm):
    """Seat the next round; ``end`` when the director chose to end the last round's
    unfinished tables as they stand."""

    end = BooleanField("end")


class ButtonForm(SiteForm):
    """A button (start a round, end a table): its CSRF token only."""
