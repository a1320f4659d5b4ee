"""The site's languages: English, Svenska and Filipino, the languages of the game's rule texts.

The language of a page is the ``lang`` cookie when it names one of :data:`LANGUAGES` (set by
the switcher on every page, a plain link, so it works without JavaScript), else the best match
for the browser's ``Accept-Language``, else English. Templates and views say their words with
this module's ``gettext``/``ngettext`` (``lazy_gettext``, imported as ``_l``, for words made at
import; ``lazy_said`` for text worked out when shown); the referee's messages (refusals,
explanations, settlement lines) arrive as :class:`~scorekeeper.rules.messages.Message` data,
built with ``say``, and are made text here with :func:`said`, from the same catalogs. That is
the site's one way of saying a word. Besides this module, only ``forms.py`` imports Flask-Babel,
to hand WTForms this request's catalog for WTForms' own messages.

The catalogs are ``scorekeeper/translations/<lang>/LC_MESSAGES/messages.po`` under version
control (``make translations`` extracts the messages and updates them). They are compiled to
``.mo`` files in the instance folder when the app starts, whenever a ``.po`` file is newer,
so a compiled catalog is never stale and never committed.

Machine contracts do not change with the language: URLs, ``data-*`` hooks and their values,
rule ids, the game record, the replay output and the CSV's data cells.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from typing import cast
from urllib.parse import unquote, urlencode, urlsplit

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from flask import (
    Blueprint,
    Flask,
    Response,
    abort,
    current_app,
    g,
    redirect,
    request,
    url_for,
)
from flask.ctx import _AppCtxGlobals
from flask.globals import _cv_app, _cv_request
from flask_babel import Babel, LazyString, force_locale
from markupsafe import Markup, escape
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers.response import Response as BaseResponse

from scorekeeper.rules.messages import Listed, Message
from scorekeeper.rules.messages import said as fact_said
from scorekeeper.rules.wording import listed

LANGUAGES: dict[str, str] = {"en": "English", "sv": "Svenska", "fil": "Filipino"}
"""Each language the site speaks, by its code, named in its own words."""
DEFAULT = "en"
COOKIE = "lang"
COOKIE_AGE = 365 * 24 * 3600
CATALOGS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "translations")
"""Where the ``.po`` catalogs are kept (under version control)."""
ALIASES = {"tl": "fil"}
"""Language codes a browser may send for one of ours: Tagalog is Filipino's base."""

bp = Blueprint("languages", __name__)
babel = Babel()


def language_of(accept: LanguageAccept) -> str:
    """The first of :data:`LANGUAGES` the browser asks for, best quality first, or English.

    A regional tag asks for its language (``sv-SE`` is Svenska), and Tagalog (``tl``) is
    Filipino's base, so it asks for Filipino.
    """
    for value, quality in accept:  # highest quality first
        base = value.replace("_", "-").split("-")[0].lower()
        base = ALIASES.get(base, base)
        if quality > 0 and base in LANGUAGES:
            return base
    return DEFAULT


def select_language() -> str:
    """This request's language: the reader's choice, else the browser's, else English."""
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return language_of(request.accept_languages)


def _request_g() -> _AppCtxGlobals | None:
    """This request's ``g``, or None outside a request (a command, the app starting).

    Read from the context variables behind ``has_request_context`` and ``g``, not through
    their proxies: every word of a page asks, and through the proxies finding the reader
    again for each of them was a twentieth of an entry's whole answer."""
    if _cv_request.get(None) is None:
        return None
    return _cv_app.get().g


def current() -> str:
    """The code of the language this page is said in (English outside a request)."""
    space = _request_g()
    if space is None:
        return DEFAULT
    code: str | None = space.get("_language")
    if code is None:
        # The same choice Flask-Babel makes with select_language, without parsing a Locale
        # (the live poll's 304 asks for the language and nothing else).
        code = space._language = select_language()
    return code


@cache
def _catalog(directories: str, code: str) -> NullTranslations:
    """The compiled catalog of language ``code`` in ``directories`` (Flask-Babel's setting,
    ``;`` between folders), read once a process. English is the messages as written.

    Flask-Babel keeps catalogs too, but finds the one it keeps by parsing the request's
    locale again, which looks for the locale's data on disk: once a request, every request."""
    if code == DEFAULT:
        return NullTranslations()
    first, *more = (Translations.load(folder, [code]) for folder in directories.split(";"))
    for catalog in more:
        if isinstance(first, Translations) and isinstance(catalog, Translations):
            first.merge(catalog)  # keeps the first's plural rule
    return first


@dataclass(frozen=True)
class _Reader:
    """The referee's :class:`~scorekeeper.rules.messages.Language`, as this request reads:
    its language and that language's catalog, looked up once (see :func:`_reader`)."""

    code: str
    catalog: NullTranslations

    def gettext(self, text: str) -> str:
        return str(self.catalog.ugettext(text))

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return str(self.catalog.ungettext(singular, plural, count))

    def pgettext(self, context: str, text: str) -> str:
        return str(self.catalog.upgettext(context, text))

    def number(self, value: int) -> str:
        return str(value) if self.code == DEFAULT else number(value, self.code)

    def listed(self, items: Sequence[str]) -> str:
        if self.code == DEFAULT:
            return listed(items)
        return format_list(list(items), locale=self.code)


_ENGLISH = _Reader(DEFAULT, NullTranslations())


def _reader() -> _Reader:
    """This request's reader, made once per request (and per language a sheet is printed in).

    A page says hundreds of words, and Flask-Babel finds the catalog again for each through
    several context lookups; a long game's log is the page that pays most for that (the
    figure is in bench/README.md, "Saying a word").
    """
    space = _request_g()
    if space is None:  # a command, or the app starting: the record's English
        return _ENGLISH
    reader: _Reader | None = space.get("_reader")
    if reader is None:
        code = current()
        reader = _Reader(code, _catalog(current_app.config["BABEL_TRANSLATION_DIRECTORIES"], code))
        space._reader = reader
    return reader


def gettext(text: str, **values: object) -> str:
    """``text`` in this request's language, its ``%(name)s`` filled from ``values`` (as
    Flask-Babel's ``gettext``, with the catalog looked up once a request)."""
    said = _reader().gettext(text)
    return said % values if values else said


def lazy_gettext(text: str, **values: object) -> str:
    """``text`` said when it is shown, in the language of the page that shows it: for words
    made once at import (form labels, notices kept in constants). Typed as the ``str`` it
    behaves as."""
    return cast(str, LazyString(gettext, text, **values))


class _LazyText(LazyString):
    """Lazy text that a page escapes like any other text (Flask-Babel's lazy strings pass
    into a page as they are, as markup)."""

    def __html__(self) -> str:
        return str(escape(str(self)))


def lazy_said(words: Callable[[], str]) -> str:
    """Text worked out by ``words()`` each time it is shown (a form's label made at import
    from the referee's house-rule texts), escaped in a page as text is; typed as the ``str``
    it behaves as."""
    return cast(str, _LazyText(words))


def ngettext(singular: str, plural: str, num: int, **values: object) -> str:
    """The form of the text for ``num`` in this request's language (``%(num)d`` is ``num``)."""
    values.setdefault("num", num)
    return _reader().ngettext(singular, plural, num) % values


def number(value: int | float, code: str | None = None) -> str:
    """A number as the reader's language (or ``code``) writes it: its digits grouped and its
    decimal sign (a float to one decimal); in English as Python writes it (``1855``, ``14.2``)."""
    code = code or current()
    if code == DEFAULT:
        return str(value)
    if isinstance(value, float):
        return format_decimal(value, format="#,##0.0", locale=code)
    return format_decimal(value, locale=code)


def said(message: object) -> str:
    """A referee's message as text in this request's language; anything else (plain or lazy
    text) as the text it is. (The referee builds messages with ``say``; the site says them.)"""
    if isinstance(message, Message | Listed):
        return fact_said(message, _reader())
    return str(message)


def said_list(items: Sequence[str]) -> str:
    """Names or phrases joined as this request's language lists them ("Ann och Bob")."""
    return _reader().listed(items)


def versus(sides: Sequence[str]) -> str:
    """The sides of a game facing each other, as a title says it ("Ann v Bob", "Ann mot Bob")."""
    said = sides[0] if sides else ""
    for side in sides[1:]:
        said = gettext("%(sides)s v %(side)s", sides=said, side=side)
    return said


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Say everything inside in ``code`` (a sheet printed in another language)."""
    outside = g.pop("_reader", None), g.pop("_language", None)
    try:
        with force_locale(code):
            g._language = code
            yield
    finally:
        g.pop("_reader", None)
        g.pop("_language", None)
        reader, language = outside
        if reader is not None:
            g._reader = reader
        if language is not None:
            g._language = language


def _safe_next(target: str | None) -> str:
    """Where the switcher returns to: a path of this site, never another site.

    Browsers read a URL loosely: they drop tabs and line breaks anywhere in it and take a
    backslash for a slash, so "/<tab>/evil.example" is "//evil.example" to them, another site.
    A path of this site is printable ASCII (the site writes every other character
    percent-encoded), so anything else is refused before it is looked at as a URL, and so is
    a control character or backslash hidden behind percent-encoding; then it must be a path
    alone: no scheme, no host, one leading slash."""
    home = url_for("games.index")
    if not target or not all("!" <= c <= "~" for c in target):
        return home
    decoded = unquote(target)
    if "\\" in decoded or any(c < " " or c == "\x7f" for c in decoded):
        return home
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return home
    return target


@bp.get("/language/<code>")
def choose(code: str) -> BaseResponse:
    """Switch the site to ``code`` for this browser and go back to the page it came from."""
    if code not in LANGUAGES:
        abort(404)
    response = redirect(_safe_next(request.args.get("next")), code=303)
    response.set_cookie(
        COOKIE,
        code,
        max_age=COOKIE_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure,
    )
    return response


def _page_of(path: str) -> str:
    """The page to go back to from ``path``: itself when it can be opened, else the page its
    form was on (a refused play at ``/games/<key>/play`` goes back to ``/games/<key>``)."""
    adapter = current_app.url_map.bind("localhost")
    while path not in ("", "/"):
        try:
            adapter.match(path, method="GET")
        except HTTPException:
            path = path.rsplit("/", 1)[0]
        else:
            return path
    return "/"


def _switcher() -> list[dict[str, object]]:
    """The switcher's links: each language, in its own name, back to this page (without a
    ``lang`` of its own, such as a sheet printed in another language has)."""
    if request.method == "GET":
        query = urlencode(
            [(name, value) for name, value in request.args.items(multi=True) if name != "lang"]
        )
        here = request.path + (f"?{query}" if query else "")
    else:
        here = _page_of(request.path)
    chosen = current()
    return [
        {
            "code": code,
            "name": name,
            "href": url_for("languages.choose", code=code, next=here),
            "current": code == chosen,
        }
        for code, name in LANGUAGES.items()
    ]


def _vary(response: Response) -> Response:
    """Pages differ by language: caches must key them by the cookie and the header."""
    if response.mimetype in ("text/html", "text/csv", "application/manifest+json"):
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
    return response


def compile_catalogs(into: str) -> str:
    """Compile every ``.po`` catalog newer than its ``.mo`` into ``into``; return ``into``.

    Written to a temporary file and renamed, so workers starting together never read half a
    catalog.
    """
    for code in LANGUAGES:
        source = os.path.join(CATALOGS, code, "LC_MESSAGES", "messages.po")
        if not os.path.exists(source):
            continue
        folder = os.path.join(into, code, "LC_MESSAGES")
        target = os.path.join(folder, "messages.mo")
        if os.path.exists(target) and os.path.getmtime(target) >= os.path.getmtime(source):
            continue
        os.makedirs(folder, exist_ok=True)
        with open(source, "rb") as po:
            catalog = read_po(po, locale=code)
        descriptor, temporary = tempfile.mkstemp(dir=folder, suffix=".mo")
        with os.fdopen(descriptor, "wb") as mo:
            write_mo(mo, catalog, use_fuzzy=False)
        os.replace(temporary, target)
    return into


# -- where a line may break ---------------------------------------------------------------


def breakable(name: str) -> Markup:
    """A name like ``boneyard_reserve`` that may wrap after its underscores, as words do after
    a hyphen: on a narrow screen or with large text it is never split inside a word."""
    return Markup(str(escape(name)).replace("_", "_<wbr>"))


TILE_NAME = re.compile(r"(?<![\w.-])\d{1,2}-\d{1,2}(?![\w-])")
"""A tile's name in running text ("6-4", "12-0"), not part of a longer token (a date, "1-2-3")."""


def tiles_unbroken(text: str) -> Markup:
    """``text`` with each tile name kept on one line: browsers break a line after a hyphen,
    even between two digits, and "0-" at a line's end with "0" on the next reads as no tile.
    For element text only (not an attribute's value)."""
    return Markup(TILE_NAME.sub(r'<span class="tile-nowrap">\g<0></span>', str(escape(text))))


def init_app(app: Flask) -> None:
    """Speak the reader's language on every page; offer the switcher and ``said``."""
    directory = compile_catalogs(os.path.join(app.instance_path, "translations"))
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", directory)
    babel.init_app(app, default_locale=DEFAULT, locale_selector=select_language)
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    # Templates say their words through this request's reader (one catalog lookup a request).
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda text: _reader().gettext(text),
        ngettext=lambda singular, plural, n: _reader().ngettext(singular, plural, n),
        pgettext=lambda context, text: _reader().pgettext(context, text),
        newstyle=True,
    )
    app.register_blueprint(bp)
    app.add_template_filter(said, "said")
    app.add_template_filter(versus, "versus")
    app.add_template_filter(breakable, "breakable")
    app.add_template_filter(tiles_unbroken, "tiles_unbroken")
    app.after_request(_vary)

    @app.context_processor
    def languages() -> dict[str, object]:
        return {"html_lang": current(), "language_links": _switcher}
