"""What a player's name may be: the same rule for the new-game form and for game records.

A name is a line of text a person reads: at most :data:`MAX_NAME` characters, with no
control characters (a NUL byte, a tab, a line break, ...), no line or paragraph separators
and no lone surrogates (which are not text at all, and which PostgreSQL cannot store).
"""

from __future__ import annotations

import unicodedata

from scorekeeper.rules.messages import Message, say

MAX_NAME = 40
"""The longest name, in characters."""
_NOT_IN_A_NAME = frozenset({"Cc", "Cs", "Zl", "Zp"})


def name_problem(name: str) -> Message | None:
    """Why ``name`` cannot be a player's name, in plain words, or None when it can."""
    if len(name) > MAX_NAME:
        return say(
            "A player's name is at most %(most)s characters; this one has %(length)s.",
            most=MAX_NAME,
            length=len(name),
        )
    code = _control_character(name)
    if code is not None:
        return say(
            "A player's name cannot hold control characters such as a tab, a line break "
            "or a NUL byte (this one holds %(code)s).",
            code=code,
        )
    return None


def control_problem(text: str) -> Message | None:
    """Why ``text`` (a club's name) cannot be a name: a control character; or None."""
    code = _control_character(text)
    if code is not None:
        return say(
            "A name cannot hold control characters such as a tab, a line break or a NUL "
            "byte (this one holds %(code)s).",
            code=code,
        )
    return None


def _control_character(text: str) -> str | None:
    """The first character of ``text`` that no name may hold, as "U+0009", or None."""
    for character in text:
        if unicodedata.category(character) in _NOT_IN_A_NAME:
            return f"U+{ord(character):04X}"
    return None


def name_key(name: str) -> str:
    """What two spellings of one player's name share: ``" ann "``, ``"Ann"`` and ``"ANN"`` are
    one player. Surrounding spaces go, case is folded (``casefold``, so ``"Straße"`` is
    ``"STRASSE"``) and the characters are put in one Unicode form (NFC)."""
    return unicodedata.normalize("NFC", name.strip()).casefold()
