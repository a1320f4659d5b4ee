# Types for what this project uses of Flask-Babel 4 (it ships none); checked against the
# installed package by `make test` (mypy.stubtest).
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from babel import Locale
from babel.support import NullTranslations, Translations
from flask import Flask

class Babel:
    def __init__(
        self,
        app: Flask | None = ...,
        date_formats: Any = ...,
        configure_jinja: bool = ...,
        *args: Any,
        **kwargs: Any,
    ) -> None: ...
    def init_app(
        self,
        app: Flask,
        default_locale: str = ...,
        default_domain: str = ...,
        default_translation_directories: str = ...,
        default_timezone: str = ...,
        locale_selector: Callable[[], str | None] | None = ...,
        timezone_selector: Callable[[], str | None] | None = ...,
    ) -> None: ...

def get_locale() -> Locale | None: ...
def get_translations() -> Translations | NullTranslations: ...
def refresh() -> None: ...
@contextmanager
def force_locale(locale: str | Locale) -> Iterator[None]: ...
def gettext(string: str, **variables: Any) -> str: ...
def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...

# Text worked out by func(*args, **kwargs) each time it is used, as the str it becomes.
class LazyString:
    def __init__(self, func: Callable[..., object], *args: Any, **kwargs: Any) -> None: ...

# A LazyString, said when used: it behaves as the str it becomes (form labels at import).
def lazy_gettext(string: str, **variables: Any) -> str: ...
def lazy_ngettext(singular: str, plural: str, num: int, **variables: Any) -> str: ...
def format_decimal(number: float, format: str | None = ...) -> str: ...
def format_datetime(
    datetime: datetime | None = ..., format: str | None = ..., rebase: bool = ...
) -> str: ...

_ = gettext
