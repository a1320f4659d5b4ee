"""The messages the code and templates say, and what the catalogs make of them.

:func:`extracted` collects every message as ``make translations`` does (``babel.cfg``, the
Makefile's keywords); :func:`problems` lists what is wrong with one language's catalog for
them: a message missing, untranslated or fuzzy, or a translation that breaks a placeholder.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT / "scorekeeper" / "translations"
KEYWORDS: dict[str, tuple[int, ...] | None] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "lazy_gettext": None,
    "_l": None,
    "say": None,
    "say_n": (1, 2),
    "pgettext": ((1, "c"), 2),
}
"""The Makefile's ``-k`` keywords: Flask-Babel's in the site, the referee's ``say``."""
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w*)\}")


@dataclass(frozen=True)
class Extracted:
    """One message as the code says it: its id, plural id when it has one, where, and the
    context that tells it from the same English said elsewhere (a menu's short "New game")."""

    msgid: str
    plural: str | None
    where: str
    context: str | None = None


def _method_options() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        return parse_mapping_cfg(config)


def extracted(files: Iterable[Path] | None = None) -> dict[str, Extracted]:
    """Every message in the project (or in ``files``), by message id."""
    method_map, options_map = _method_options()
    found: dict[str, Extracted] = {}
    if files is None:
        results = (
            (filename, message, lineno)
            for filename, lineno, message, _comments, _context in extract_from_dir(
                str(ROOT), method_map, options_map, keywords=KEYWORDS
            )
        )
    else:
        results = (
            (str(path), message, lineno)
            for path in files
            for lineno, message, _comments, _context in _extract_file(path, method_map, options_map)
        )
    for filename, message, lineno in results:
        msgid, plural = (message[0], message[1]) if isinstance(message, tuple) else (message, None)
        if msgid:
            found.setdefault(msgid, Extracted(msgid, plural, f"{filename}:{lineno}"))
    return found


def _extract_file(
    path: Path, method_map: list[tuple[str, str]], options_map: dict[str, dict[str, str]]
) -> list[tuple[int, Any, list[str], str | None]]:
    from babel.util import pathmatch

    relative = str(Path(path).resolve().relative_to(ROOT))
    for pattern, method in method_map:
        if pathmatch(pattern, relative):
            return list(
                extract_from_file(
                    method,
                    str(ROOT / relative),
                    keywords=KEYWORDS,
                    options=options_map.get(pattern, {}),
                )
            )
    return []


def catalog(language: str, path: Path | None = None) -> Catalog:
    """The ``.po`` catalog of ``language`` as kept in git (or the one at ``path``)."""
    path = path or CATALOGS / language / "LC_MESSAGES" / "messages.po"
    with open(path, "rb") as po:
        return read_po(po, locale=language)


def placeholders(text: str) -> set[str]:
    """The ``%(name)s`` and ``{name}`` placeholders of a message."""
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def problems(messages: dict[str, Extracted], translated: Catalog) -> list[str]:
    """What is wrong with ``translated`` for ``messages``, a line each (none when complete)."""
    found: list[str] = []
    for _key, message in sorted(messages.items()):
        msgid = message.msgid
        entry = translated.get(msgid, context=message.context)
        if entry is None:
            found.append(f"missing: {msgid!r} ({message.where})")
            continue
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        if not all(strings):
            found.append(f"untranslated: {msgid!r} ({message.where})")
            continue
        if entry.fuzzy:
            found.append(f"fuzzy: {msgid!r} ({message.where})")
        wanted = placeholders(msgid) | placeholders(message.plural or "")
        for string in strings:
            if placeholders(string) - wanted or (
                message.plural is None and placeholders(string) != wanted
            ):
                found.append(f"placeholders differ: {msgid!r} -> {string!r} ({message.where})")
    return found
