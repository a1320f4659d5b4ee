"""What the referee says, as data: an English text with named facts, said in any language.

The referee words every refusal, explanation, note and settlement line as a :class:`Message`:
an English text with ``%(name)s`` placeholders (the gettext message id) and the facts that
fill them (names, tiles, counts, other messages). ``str(message)`` is the English sentence,
which the command line, the game record and the replay output use unchanged. The site says
the same message in the reader's language through a :class:`Language` of its own (it looks
the text up in its catalogs), so the engine stays free of Flask and of any catalog.

Write ``say("%(player)s cannot draw: the boneyard is empty.", player=name)`` for a sentence
and ``say_n("%(count)s tile", "%(count)s tiles", count)`` for one that depends on a number.
Extraction (``babel.cfg``) collects both by name. Placeholders are always ``%(name)s``: a
fact is turned into text (a number in the reader's digits, a list with the reader's "and")
before it is put in its place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, Union

from scorekeeper.rules.wording import listed

Fact = Union[str, int, "Message", "Listed"]
"""What fills a placeholder: text said as it is (a name, a tile, a rule id), a number, a
message said in the same language, or a list of those."""


class Language(Protocol):
    """How a language says the parts of a message: its catalog, numbers and lists."""

    def gettext(self, text: str) -> str:
        """The text in this language (the English when there is no translation)."""
        ...

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of the text for ``count``, by this language's plural rules."""
        ...

    def number(self, value: int) -> str:
        """An integer in this language's digits and signs."""
        ...

    def listed(self, items: Sequence[str]) -> str:
        """Items joined as this language lists them ("Ann, Bob and Cy")."""
        ...


class _English:
    """English as the engine writes it: the message ids are its sentences."""

    def gettext(self, text: str) -> str:
        return text

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        return singular if count == 1 else plural

    def number(self, value: int) -> str:
        return str(value)

    def listed(self, items: Sequence[str]) -> str:
        return listed(items)


ENGLISH: Language = _English()


@dataclass(frozen=True, slots=True)
class Listed:
    """A list of facts, said with the language's way of joining them."""

    items: tuple[Fact, ...]


@dataclass(frozen=True, slots=True)
class Message:
    """A sentence of the referee: English ``text`` (and ``plural``) with named ``facts``.

    With a ``plural``, the fact ``count`` chooses between the two by the language's rules.
    """

    text: str
    facts: tuple[tuple[str, Fact], ...] = ()
    plural: str | None = None

    def __str__(self) -> str:
        return self.said_in(ENGLISH)

    def fact(self, name: str) -> Fact:
        """One fact by its name (KeyError when the message has none of that name)."""
        for key, value in self.facts:
            if key == name:
                return value
        raise KeyError(name)

    def said_in(self, language: Language) -> str:
        """The message in ``language``, its facts said in the same language."""
        if self.plural is None:
            template = language.gettext(self.text)
        else:
            count = self.fact("count")
            assert isinstance(count, int), "a plural message counts with an int fact 'count'"
            template = language.ngettext(self.text, self.plural, count)
        if not self.facts:
            return template
        return template % {name: said(value, language) for name, value in self.facts}


def said(fact: Fact, language: Language) -> str:
    """A fact as text in ``language``."""
    # Most facts are text (names, tiles), then numbers: tested in that order, as a long
    # game's log says thousands of facts.
    if type(fact) is str:
        return fact
    if type(fact) is int:
        return language.number(fact)
    if isinstance(fact, Message):
        return fact.said_in(language)
    if isinstance(fact, Listed):
        return language.listed([said(item, language) for item in fact.items])
    if isinstance(fact, bool):  # a bool is an int to Python; say it as the engine does
        return str(fact)
    if isinstance(fact, int):
        return language.number(fact)
    return fact


def say(text: str, /, **facts: Fact) -> Message:
    """A message: English ``text`` with ``%(name)s`` placeholders for ``facts``."""
    return Message(text, tuple(facts.items()))


def say_n(singular: str, plural: str, count: int, /, **facts: Fact) -> Message:
    """A message whose words depend on ``count`` (given to the text as ``%(count)s``)."""
    return Message(singular, (("count", count), *facts.items()), plural)


def say_list(items: Sequence[Fact]) -> Listed:
    """Facts to be said as a list ("Ann and Bob", "Ann och Bob")."""
    return Listed(tuple(items))
