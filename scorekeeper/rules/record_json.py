"""Strict JSON for game records: JSON text as a record may hold it, or a ``record`` refusal.

Python's own reader takes more than a record should: a key twice in one object (the later
silently wins), NaN and Infinity, lone surrogates, numbers of thousands of digits. Each is
refused here with a message that says what was found, so a broken file changes nothing and
says why.
"""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.messages import say


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            shown = key.encode("utf-8", "backslashreplace").decode("utf-8")
            raise MalformedInput(say('The key "%(key)s" appears twice in one object.', key=shown))
        obj[key] = value
    return obj


def _no_constants(name: str) -> object:
    raise MalformedInput(say("%(given)s is not a number a record can hold.", given=name))


def _only_text(data: object) -> object:
    """``data`` unchanged, unless a string in it holds a lone surrogate (a JSON escape such as
    "\\ud800" that is no character): then a ``record`` refusal, since no text can hold it."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                raise MalformedInput(
                    say(
                        "The record holds a lone surrogate (an escape such as \\ud800 that is "
                        "not a character): it is not Unicode text."
                    )
                ) from None
    return data


MOST_DIGITS = 20
"""No number in a game record is longer (a score, a target, a pip total: a few digits)."""


def _bounded_int(digits: str) -> int:
    """An integer of the JSON text; one too long for any field of a record is refused before
    it is read (Python refuses to read more than 4,300 digits, with a ValueError)."""
    if len(digits.lstrip("-")) > MOST_DIGITS:
        raise MalformedInput(
            say(
                "The record holds a number of %(digits)s digits: no number in a game record "
                "is that long.",
                digits=len(digits.lstrip("-")),
            )
        )
    return int(digits)


def parse_json(text: str | bytes) -> object:
    """Parse JSON text, refusing what is not JSON (or not Unicode text) with rule ``record``."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8-sig")
        return _only_text(
            json.loads(
                text,
                object_pairs_hook=_no_duplicate_keys,
                parse_constant=_no_constants,
                parse_int=_bounded_int,
            )
        )
    except UnicodeDecodeError:
        raise MalformedInput(say("The record is not UTF-8 text.")) from None
    except json.JSONDecodeError as error:
        raise MalformedInput(
            say(
                "The record is not JSON: %(error)s at line %(line)s, column %(column)s.",
                error=error.msg,
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except RecursionError:
        raise MalformedInput(say("The record is nested too deeply to be a game record.")) from None
