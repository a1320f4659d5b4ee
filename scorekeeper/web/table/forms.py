"""One form per use case. Each entry form carries ``version``: the game's version the page saw."""

from __future__ import annotations

import json
from functools import partial
from typing import TypeVar

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    SubmitField,
    TextAreaField,
)

# types-WTForms describes WTForms 3.2; SelectChoice (3.3) is not in it yet, so it is Any here.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined,unused-ignore]
from wtforms.validators import InputRequired, Length, NumberRange, Optional, ValidationError

from scorekeeper.rules import HOUSE_RULES, PRESETS
from scorekeeper.rules.events import REASON_LENGTH
from scorekeeper.rules.house_rule import HouseRule
from scorekeeper.rules.names import MAX_NAME
from scorekeeper.rules.options import (
    FIVES_TARGETS,
    HOUSE_RULES_BY_NAME,
    PRESET_TITLES,
    SEED_RULES,
    VARIATIONS,
    Preset,
)
from scorekeeper.rules.setup import DOUBLE_SIX_MOST, MOST_PLAYERS
from scorekeeper.rules.tiles import LARGEST
from scorekeeper.web.forms import SiteForm, plain_name
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.languages import lazy_said, said

LEADER_CHOICES = [
    SelectChoice("random", _l("At random: the app picks by lot")),
    SelectChoice("draw", _l("Draw for lead: each player draws a tile, the highest leads")),
    SelectChoice("table", _l("Choose the leader at the table: tap who leads")),
]


_T = TypeVar("_T")


def _given(data: _T | None) -> _T:
    """A required field's value once the form has validated (InputRequired saw it given)."""
    if data is None:
        raise ValueError("read before the form was validated: a required field is empty")
    return data


class EntryForm(FlaskForm):
    """An entry on the table: draw, pass, undo, redo; ``version`` guards against stale pages.

    The version only grows (every change of the game adds one), so a page that has fallen
    behind can never carry the current one by chance, as an event count could after an undo.
    """

    version = IntegerField("version", validators=[InputRequired(), NumberRange(min=0)])

    @property
    def seen(self) -> int:
        """The version the page saw (read after ``validate()`` passed)."""
        return _given(self.version.data)


class ForgetForm(FlaskForm):
    """Forget one of this browser's games (by either of its keys)."""

    key = StringField("key", validators=[InputRequired(), Length(max=40)])


class PlayForm(EntryForm):
    """A tile played, and the end it goes on when it fits several.

    A larger set's tray asks first for an end (``choose=end`` with ``end``) or, before the
    lead, a number (``choose=number`` with ``number``): sent without a tile, that only shows
    the tiles carrying it (an empty value shows none again); nothing is entered."""

    tile = StringField("tile", validators=[Optional(), Length(max=10)])
    end = StringField("end", validators=[Optional(), Length(max=10)])
    choose = StringField("choose", validators=[Optional(), Length(max=10)])
    number = IntegerField("number", validators=[Optional(), NumberRange(min=0, max=LARGEST)])


class TurnForm(EntryForm):
    """Turn the lead tile round; ``west`` is the number the page wants on W afterwards."""

    west = IntegerField("west", validators=[InputRequired(), NumberRange(min=0, max=LARGEST)])

    @property
    def west_wanted(self) -> int:
        """The number wanted on W (read after ``validate()`` passed)."""
        return _given(self.west.data)


class CallForm(EntryForm):
    """What the player of the last play called (house rule muggins): its count's points, or
    less (0: nothing called)."""

    called = IntegerField("called", validators=[InputRequired(), NumberRange(min=0, max=999)])


class GuessForm(EntryForm):
    """Practice mode (house rule practice): the table's guess of the hidden count, in points
    (0: no score). Any whole number gets to the referee, which says why one is refused."""

    guess = IntegerField("guess", validators=[InputRequired(), NumberRange(min=0, max=9999)])


class ClaimForm(EntryForm):
    """ "Muggins!": the seat that claims the count the last play's player called short."""

    claimant = IntegerField(
        "claimant", validators=[InputRequired(), NumberRange(min=0, max=MOST_PLAYERS - 1)]
    )


class AdjustForm(EntryForm):
    """An adjustment agreed at the table (docs/rules.md 8c): a side, up or down, by how much, why.

    The points are typed as a positive number with the way chosen beside them: a phone's
    number pad often has no minus sign.
    """

    side = RadioField(_l("Whose score"), validators=[InputRequired()], choices=[])
    way = RadioField(
        _l("Up or down"),
        choices=[SelectChoice("up", _l("Add points")), SelectChoice("down", _l("Take points off"))],
        default="down",
        validators=[InputRequired()],
    )
    points = IntegerField(_l("Points"), validators=[InputRequired(), NumberRange(min=1, max=1000)])
    reason = StringField(
        _l("Reason"),
        validators=[InputRequired(), Length(max=REASON_LENGTH)],
        description=_l("What the table agreed, e.g. drew while able to play."),
    )

    @property
    def change(self) -> int:
        """The points with their sign (read after ``validate()`` passed)."""
        points = _given(self.points.data)
        return points if self.way.data == "up" else -points


class PenaltyForm(EntryForm):
    """A penalty the club agreed, entered as an adjustment: the player's seat and the penalty's
    id (the button tapped)."""

    seat = IntegerField("seat", validators=[Optional(), NumberRange(min=0, max=MOST_PLAYERS - 1)])
    penalty = IntegerField("penalty", validators=[InputRequired(), NumberRange(min=1)])


class SettleForm(EntryForm):
    """What each player still holding tiles has left; the fields are ``held-<seat>``."""


class LeadForm(EntryForm):
    """The leader of a hand: a seat, at random, by drawing tiles (fields ``drawn-<seat>``), or
    the holder of the highest double after any redraws."""

    how = StringField("how", validators=[Optional(), Length(max=10)])
    leader = IntegerField(
        "leader", validators=[Optional(), NumberRange(min=0, max=MOST_PLAYERS - 1)]
    )
    among = HiddenField("among", validators=[Optional(), Length(max=20)])
    redraws = IntegerField("redraws", validators=[Optional(), NumberRange(min=0, max=91)])
    """How many times everyone drew one more tile, nobody holding a double (highest-double)."""


def _value_words(rule: HouseRule, value: str) -> str:
    """A value of ``rule`` as the record spells it, with its plain words in this language."""
    return f"{value}: {said(rule.value_texts.get(value, value))}"


def _title(rule: HouseRule) -> str:
    return lazy_said(lambda: said(rule.title))


def _text(rule: HouseRule) -> str:
    return lazy_said(lambda: said(rule.text))


def _chosen(rule: HouseRule, default: str | None = None) -> SelectField:
    """The field of a house rule that is one of its values: each shown with its plain words;
    ``default`` stands when a form sent without the field (an older page) is read."""
    choices = [
        SelectChoice(value, lazy_said(partial(_value_words, rule, value))) for value in rule.choices
    ]
    return SelectField(_title(rule), description=_text(rule), choices=choices, default=default)


def _numbered(rule: HouseRule, numbers: range) -> IntegerField:
    """The field of a house rule that is a whole number in its range."""
    return IntegerField(
        _title(rule),
        description=_text(rule),
        validators=[InputRequired(), NumberRange(min=numbers.start, max=numbers[-1])],
    )


def _number_chosen(rule: HouseRule) -> SelectField:
    """The field of a house rule that is one of a few whole numbers."""
    choices = [
        SelectChoice(n, lazy_said(partial(_value_words, rule, str(n)))) for n in rule.number_choices
    ]
    return SelectField(_title(rule), description=_text(rule), choices=choices, coerce=int)


SENT_WITHOUT: dict[str, str] = {"set": "double-six"}
"""The value of a house rule a form sent without its field is read with: a page from before
the rule was on the form (the others are refused as not a valid choice)."""


def house_rule_field(rule: HouseRule) -> Field:
    """The new-game form's field of ``rule``, made from its registry entry."""
    if rule.number_choices:
        return _number_chosen(rule)
    if rule.numbers is not None:
        return _numbered(rule, rule.numbers)
    return _chosen(rule, default=SENT_WITHOUT.get(rule.name))


HOUSE_RULE_FIELDS = tuple(rule.name for rule in HOUSE_RULES if rule.name != "target")
"""The house rules the form has a field of their own for (the target is a field of its own)."""
OUTSIDE_THE_FOLD = ("set", "target")
"""House rules the new-game form shows above the House rules fold: the set with the seats (it
decides how many there are), the target under the preset."""
IN_THE_FOLD = tuple(rule.name for rule in SEED_RULES if rule.name not in OUTSIDE_THE_FOLD)
"""The seed presets' house rules in the House rules fold, in the registry's order."""
IN_VARIATIONS = tuple(rule.name for rule in VARIATIONS)
"""The variations, in their own group of the fold, in the registry's order."""


def _seat(label: str) -> StringField:
    """A seat's name field: empty, or a name as records take them."""
    too_long = _l("Field cannot be longer than %(max)d characters.")
    return StringField(
        label, validators=[Optional(), Length(max=MAX_NAME, message=too_long), plain_name]
    )


def _preset_title(preset: Preset) -> str:
    return said(PRESET_TITLES[preset])


SEATS = tuple(f"player{seat}" for seat in range(1, MOST_PLAYERS + 1))
"""The seat fields of the new-game form, in seat order: player1 to player8."""
SMALL_SET_SEATS = SEATS[:DOUBLE_SIX_MOST]
"""The seats every set has; the others (5 to 8) only a double-nine or double-twelve."""


class NewGameForm(SiteForm):
    """A new game: 2 to 4 players in seat order (up to 8 with a larger set), the set, the
    preset, house rules, target, first leader."""

    player1 = _seat(_l("Seat 1"))
    player2 = _seat(_l("Seat 2"))
    player3 = _seat(_l("Seat 3"))
    player4 = _seat(_l("Seat 4"))
    player5 = _seat(_l("Seat 5"))
    player6 = _seat(_l("Seat 6"))
    player7 = _seat(_l("Seat 7"))
    player8 = _seat(_l("Seat 8"))
    preset = SelectField(
        _l("Preset"),
        choices=[SelectChoice(p, lazy_said(partial(_preset_title, p))) for p in PRESETS],
        default=PRESETS[0],
    )
    partners = BooleanField(_l("Partners: seats 1 and 3 against seats 2 and 4 (4 players)"))
    target = IntegerField(
        _l("Target"), validators=[InputRequired(), NumberRange(min=1, max=1000)], default=250
    )
    leader = RadioField(_l("First leader"), choices=LEADER_CHOICES, default="random")
    filled = HiddenField("filled")
    club_defaults = BooleanField(_l("Start the club's next games with these house rules"))
    load = SubmitField(_l("Load the preset's defaults"))
    start = SubmitField(_l("Start the game"))
    # One field per house rule of the registry, in its order, is added below the class.

    def player_names(self) -> list[str]:
        """The names given, in seat order, empty seats left out."""
        fields = (self[name] for name in SEATS)
        return [f.data.strip() for f in fields if f.data and f.data.strip()]

    @property
    def small_set_seats(self) -> list[Field]:
        """Seats 1 to 4, which every set has."""
        return [self[name] for name in SMALL_SET_SEATS]

    @property
    def more_seats(self) -> list[Field]:
        """Seats 5 to 8, for a larger set."""
        return [self[name] for name in SEATS[DOUBLE_SIX_MOST:]]

    @property
    def fold_fields(self) -> list[Field]:
        """The fields of the seed presets' house rules inside the House rules fold."""
        return [self[name] for name in IN_THE_FOLD]

    @property
    def variation_fields(self) -> list[Field]:
        """The fields of the variations, in their group inside the fold."""
        return [self[name] for name in IN_VARIATIONS]

    @property
    def folded_errors(self) -> bool:
        """Whether a field inside the House rules fold was refused (the fold opens)."""
        return any(f.errors for f in self.fold_fields + self.variation_fields)

    @property
    def more_seats_filled(self) -> bool:
        """Whether a seat beyond the fourth has a name (it is then shown whatever the set)."""
        return any((self[name].data or "").strip() for name in SEATS[DOUBLE_SIX_MOST:])

    @property
    def target_by_players(self) -> str:
        """The target the preset the form was filled with plays to, for each number of
        players, as JSON for static/js/target-default.js ({"2": 250, "3": 200, ...}); empty
        in fives, whose target does not follow the players."""
        if self["units"].data == "fives":
            return ""
        preset = (self.filled.data or "").partition(":")[0]
        rule = HOUSE_RULES_BY_NAME["target"]
        if preset not in PRESETS:
            preset = PRESETS[0]
        counts = range(2, MOST_PLAYERS + 1)
        return json.dumps({str(n): rule.default(preset, n) for n in counts}, sort_keys=True)

    @property
    def target_hint(self) -> str | None:
        """Said under the target when it follows the number of players (All Fives: 250 with
        two, 200 with more), for a form without JavaScript, whose target is not changed as
        names are typed: the server plays a target left at the default to the right one."""
        if not self.target_by_players:
            return None
        by_players: dict[str, int] = json.loads(self.target_by_players)
        two, more = by_players["2"], by_players["3"]
        if two == more or len(set(by_players.values())) != 2:
            return None
        return _(
            "%(two)s with 2 players, %(more)s with 3 or more: a target left at its default "
            "follows the players.",
            two=two,
            more=more,
        )

    def validate_set(self, field: Field) -> None:
        """More than 4 players need a double-nine or double-twelve set (docs/rules.md 1a)."""
        count = len(self.player_names())
        if field.data == "double-six" and count > DOUBLE_SIX_MOST:
            raise ValidationError(
                _(
                    "A double-six set is for 2 to 4 players: for %(count)s players choose "
                    "double-nine or double-twelve.",
                    count=count,
                )
            )

    def validate_target(self, field: Field) -> None:
        """In points the target is a multiple of five up to 1000; in fives 1 to 200."""
        if field.data is None:
            return
        if self["units"].data == "fives":
            if not FIVES_TARGETS.start <= field.data <= FIVES_TARGETS[-1]:
                raise ValidationError(
                    _(
                        "In fives the target is %(low)s to %(high)s (61 is the usual).",
                        low=FIVES_TARGETS.start,
                        high=FIVES_TARGETS[-1],
                    )
                )
        elif field.data < 5 or field.data % 5:
            raise ValidationError(_("The target is a multiple of 5, from 5 to 1000."))


for _rule in HOUSE_RULES:
    if _rule.name != "target":  # the target is the field above, checked in the game's units
        setattr(NewGameForm, _rule.name, house_rule_field(_rule))


class ImportForm(SiteForm):
    """An all-fives/1 record, as a file or pasted text."""

    record = FileField(_l("Record file (.json)"))
    text = TextAreaField(_l("Or paste the record"))
    taking = HiddenField()
    """Set by the page that showed the house rules the record leaves out: import with the
    values chosen there (each ``take-<rule>``)."""
