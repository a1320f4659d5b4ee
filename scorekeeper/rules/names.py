"""What a player's name may be: the same rule for the new-game form and for game records.

A name is a line of text a person reads: at most :data:`MAX_NAME` characters, with no
control characters (a NUL byte, a tab, a line break, ...), no line or paragraph separators
and no lone surrogates (which are not text at all, and which PostgreSQL cannot store).
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40
"""The longest name, in characters."""
_NOT_IN_A_NAME = frozenset({"Cc", "Cs", "Zl", "Zp"})


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name, in plain words, or None when it can."""
    if len(name) > MAX_NAME:
        return f"A player's name is at most {MAX_NAME} characters; this one has {len(name)}."
    for character in name:
        if unicodedata.category(character) in _NOT_IN_A_NAME:
            code = f"U+{ord(character):04X}"
            return (
                f"A player's name cannot hold control characters such as a tab, a line break "
                f"or a NUL byte (this one holds {code})."
            )
    return None


def name_key(name: str) -> str:
    """What two spellings of one player's name share: ``" ann "``, ``"Ann"`` and ``"ANN"`` are
    one player. Surrounding spaces go, case is folded (``casefold``, so ``"Straße"`` is
    ``"STRASSE"``) and the characters are put in one Unicode form (NFC)."""
    return unicodedata.normalize("NFC", name.strip()).casefold()
