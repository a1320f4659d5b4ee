"""The base of the site's forms: WTForms' own messages in the reader's language, and the
check every typed name passes (a player's, a club's).

Labels, descriptions and messages are said in the reader's language; WTForms' own messages
("This field is required.") come from the site's catalogs through :class:`SiteForm`.
"""

from __future__ import annotations

from flask_babel import get_translations
from flask_wtf import FlaskForm
from werkzeug.datastructures import FileStorage
from wtforms import Field
from wtforms.validators import ValidationError

from scorekeeper.rules.names import control_problem, name_problem
from scorekeeper.web.languages import lazy_gettext as _l
from scorekeeper.web.languages import said

WTFORMS_MESSAGES = (
    _l("This field is required."),
    _l("Not a valid integer value."),
    _l("Not a valid choice."),
    _l("Invalid Choice: could not coerce."),
    _l("Number must be between %(min)s and %(max)s."),
)
"""WTForms' own messages that the site's forms can show, said from the site's catalogs (see
:class:`SiteForm`); listed here so that ``make translations`` extracts them."""


class _SiteCatalog:
    """WTForms' translations for its own messages: the site's catalog of this request."""

    def gettext(self, string: str) -> str:
        return str(get_translations().ugettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(get_translations().ungettext(singular, plural, n))


class SiteForm(FlaskForm):
    """A form whose WTForms messages ("This field is required.") are said in the reader's
    language from the site's own catalogs, the same words for every language of the site."""

    class Meta:
        def get_translations(self, form: object) -> _SiteCatalog:
            return _SiteCatalog()


def plain_text(form: FlaskForm, field: Field) -> None:
    """A name that is not a player's (a club's): no control characters (its length is its
    own field's Length)."""
    if field.data:
        problem = control_problem(field.data.strip())
        if problem is not None:
            raise ValidationError(said(problem))


def plain_name(form: FlaskForm, field: Field) -> None:
    """A player's name follows the rule records follow too (length, no control characters)."""
    if field.data:
        problem = name_problem(field.data.strip())
        if problem is not None:
            raise ValidationError(said(problem))


def uploaded_or_pasted(upload: FileStorage | None, pasted: str | None) -> bytes:
    """What an import form was given: the chosen file's bytes, else the pasted text's. A lone
    surrogate pasted is kept (``surrogatepass``), for the record's reader to refuse by name."""
    data = upload.read() if upload else b""
    if not data.strip():
        data = (pasted or "").encode("utf-8", "surrogatepass")
    return data
