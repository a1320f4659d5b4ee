"""The glossary keeps the catalogs: no translation uses a word docs/glossary.md rejects for its
language (Svenska *boneyard*, *pips*, "har turen"; Filipino *manunulid*, *lumabas*,
*maramihang lima*, ...)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from tests.support.catalogs import catalog

GLOSSARY = Path(__file__).resolve().parents[2] / "docs" / "glossary.md"
LANGUAGE_HEADING = re.compile(r"^## .*\((\w+)\)\s*$")
CODE = re.compile(r"<code>.*?</code>", re.S)
TAG = re.compile(r"<[^>]+>")


def rejected_words(text: str) -> dict[str, list[tuple[str, str]]]:
    """The glossary's rejected words by language code: (word, the English term it stands for),
    from the Rejected column of the table under each ``## Language (code)`` heading."""
    found: dict[str, list[tuple[str, str]]] = {}
    language = None
    column = None
    for line in text.splitlines():
        heading = LANGUAGE_HEADING.match(line)
        if heading:
            language, column = heading.group(1), None
            continue
        if not line.startswith("|") or language is None:
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if column is None:
            column = cells.index("Rejected") if "Rejected" in cells else None
            continue
        if set(cells[0]) <= set("-:"):
            continue
        for word in re.findall(r"`([^`]+)`", cells[column]):
            found.setdefault(language, []).append((word, cells[0]))
    return found


def plain(text: str) -> str:
    """A translation as a reader sees its words: house-rule codes and tags left out."""
    return TAG.sub("", CODE.sub("", text))


def matcher(word: str) -> re.Pattern[str]:
    """A rejected word at the start of a word, in any case (``pips`` finds *pipsumma*, not
    the placeholder ``%(pips)s``). In a phrase one word may stand between two of its words
    (``tar hem`` finds *tar ingen hem*), but not before a placeholder: ``avrundat
    %(rounded)s`` is rejected for the *till* it lacks."""
    parts = word.split()
    pattern = re.escape(parts[0])
    for part in parts[1:]:
        gap = r"\s+" if part.startswith("%(") else r"\s+(?:[\w-]+\s+)?"
        pattern += gap + re.escape(part)
    return re.compile(r"(?<![\w(])" + pattern, re.I)


def offenders(translated: Catalog, words: list[tuple[str, str]]) -> list[str]:
    """Each translation that uses a rejected word: its msgid, the word and the term."""
    found = []
    patterns = [(matcher(word), word, term) for word, term in words]
    for message in translated:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        msgid = message.id if isinstance(message.id, str) else message.id[0]
        for pattern, word, term in patterns:
            if any(pattern.search(plain(text)) for text in strings if text):
                found.append(f"{msgid!r} uses {word!r} (glossary: {term})")
    return found


REJECTED = rejected_words(GLOSSARY.read_text(encoding="utf-8"))


def test_the_glossary_rejects_the_words_the_review_threw_out() -> None:
    assert set(REJECTED) == {"sv", "fil"}
    sv = {word for word, _term in REJECTED["sv"]}
    fil = {word for word, _term in REJECTED["fil"]}
    assert {"boneyard", "pips", "har turen", "avrundat %(rounded)s", "blockerad hand"} <= sv
    assert {
        "manunulid",
        "lumabas",
        "maramihang",
        "nilaro ni",
        "mula sa %(others)s",
        "tableau",
    } <= fil


def test_a_rejected_word_is_found_wherever_a_translation_uses_it() -> None:
    planted = Catalog(locale="sv")
    planted.add("Boneyard %(tiles)s", "Boneyard %(tiles)s")
    planted.add("%(player)s holds %(pips)s", "%(player)s har %(pips)s kvar")
    planted.add("Pip total", "Pipsumma")
    planted.add("rounds to %(rounded)s", "avrundat %(rounded)s")
    planted.add("rounds to %(rounded)s!", "avrundat till %(rounded)s")
    planted.add("<code>boneyard</code>", "<code>boneyard</code>")
    planted.add("nobody collects", "ingen tar hem")
    planted.add("nobody collects!", "med dubbelbrickor tar ingen hem")
    planted.add("nobody collects twice", "tar ingen av dem hem")
    found = offenders(planted, REJECTED["sv"])
    assert [line.split(" uses ")[0] for line in found] == [
        "'Boneyard %(tiles)s'",
        "'Pip total'",
        "'rounds to %(rounded)s'",
        "'nobody collects'",
        "'nobody collects!'",
    ]


@pytest.mark.parametrize("language", ["sv", "fil"])
def test_no_translation_uses_a_word_the_glossary_rejects(language: str) -> None:
    found = offenders(catalog(language), REJECTED[language])
    assert not found, f"{len(found)} {language} translations:\n" + "\n".join(found)
