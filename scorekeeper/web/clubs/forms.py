"""The clubs' forms: a new club, renaming and merging players, filing a game, importing."""

from __future__ import annotations

from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import IntegerField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange

from scorekeeper.rules.names import MAX_NAME
from scorekeeper.web.clubs.keeping import MAX_CLUB_NAME
from scorekeeper.web.forms import plain_name


def _stripped(text: str | None) -> str | None:
    """A name without the spaces around it (a name of spaces is no name)."""
    return text.strip() if isinstance(text, str) else text


class ClubForm(FlaskForm):
    """A new club: its name."""

    name = StringField(
        "The club's name",
        filters=[_stripped],
        validators=[DataRequired(), Length(max=MAX_CLUB_NAME), plain_name],
        description="A family, a Tuesday club: whatever the players call themselves.",
    )


class RenameForm(FlaskForm):
    """A roster player's new name."""

    player = IntegerField("player", validators=[InputRequired(), NumberRange(min=1)])
    name = StringField(
        "New name",
        filters=[_stripped],
        validators=[DataRequired(), Length(max=MAX_NAME), plain_name],
    )


class MergeForm(FlaskForm):
    """Two roster entries that are one player: ``source`` becomes ``target``."""

    source = IntegerField("Merge", validators=[InputRequired(), NumberRange(min=1)])
    target = IntegerField("into", validators=[InputRequired(), NumberRange(min=1)])


class FileGameForm(FlaskForm):
    """An existing game to file under the club: its edit link (or just its key)."""

    link = StringField(
        "The game's edit link",
        validators=[InputRequired(), Length(max=500)],
        description="Paste the link of a game's edit page (the one that can enter plays).",
    )


class BatchImportForm(FlaskForm):
    """Records to import into the club: a file (JSON, JSON Lines or zip) or pasted text."""

    records = FileField("Records file (.json, .jsonl or .zip)")
    text = TextAreaField("Or paste records (one per line)")
