"""docs/rules.md is the rulebook the code cites: every citation of it, in the code, the
templates, the styles, the tests and the docs, names a section it has.

A citation is ``docs/rules.md`` (or a link to ``rules.md``) followed by section ids
("docs/rules.md 8b", "[rules.md](rules.md) section 1", "docs/rules.md sections 5 to 7, 8b"), or a
section cited on its own ("section 6", "Section 8a's variations"): every "section N" in these
files is one of the rulebook's. There is no RULES.md, so naming it is a citation of nothing.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULEBOOK = ROOT / "docs" / "rules.md"
_CITING = {"scorekeeper", "templates", "static", "tests", "docs", "bench", "tools"}
"""Where the project's own files are (the virtualenv and node_modules are not)."""
_HERE = Path(__file__).resolve()
"""This file, left out of the check: its own example cites sections that do not exist."""

_ID = r"\d+[a-z]?"
_IDS = rf"{_ID}(?:(?:\s*[,/-]\s*|\s+(?:and|to|or)\s+)(?:sections?\s+)?{_ID})*"
_CITED = re.compile(rf"rules\.md\]?(?:\([^)\s]*\))?,?\s+(?:sections?\s+)?(?P<ids>{_IDS})\b")
_SECTION = re.compile(rf"\b[Ss]ections?\s+(?P<ids>{_IDS})\b")
_HEADING = re.compile(rf"^## (?P<id>{_ID})\. \S", re.MULTILINE)


def _sections(text: str) -> list[str]:
    """The ids of the rulebook's numbered sections, in the order they stand."""
    return [match["id"] for match in _HEADING.finditer(text)]


def _cited(text: str) -> Iterator[tuple[int, str]]:
    """Each section id ``text`` cites, with the line it is on."""
    for pattern in (_CITED, _SECTION):
        for match in pattern.finditer(text):
            line = text.count("\n", 0, match.start()) + 1
            for cited in re.findall(_ID, match["ids"]):
                yield line, cited


def _faults(text: str, sections: set[str]) -> list[str]:
    """What is wrong with the citations of ``text``: a section the rulebook lacks, or RULES.md."""
    faults = [f"{line}: section {cited}" for line, cited in _cited(text) if cited not in sections]
    faults += [
        f"{text.count(chr(10), 0, match.start()) + 1}: RULES.md (the rulebook is docs/rules.md)"
        for match in re.finditer(r"RULES\.md", text)
    ]
    return faults


def _citing_files() -> Iterator[Path]:
    """The project's own files that may cite the rulebook (no vendored code, no catalogs, not
    this file)."""
    for pattern in ("*.py", "*.html", "*.js", "*.css", "*.md"):
        for path in ROOT.rglob(pattern):
            parts = path.relative_to(ROOT).parts
            skipped = "vendor" in parts or "translations" in parts or path == _HERE
            if parts[0] in _CITING and not skipped:
                yield path
    yield ROOT / "README.md"


def _by_number(section: str) -> tuple[int, str]:
    return int(section.rstrip("abcdefghijklmnopqrstuvwxyz")), section.lstrip("0123456789")


def test_the_rulebook_numbers_its_sections_once_in_order() -> None:
    sections = _sections(RULEBOOK.read_text(encoding="utf-8"))
    assert {"1", "1a", "6", "8", "8a", "8b", "8c", "9"} <= set(sections)
    assert len(sections) == len(set(sections)), "a section number is used twice"
    assert sections == sorted(sections, key=_by_number)


def test_every_citation_names_a_section_of_the_rulebook() -> None:
    sections = set(_sections(RULEBOOK.read_text(encoding="utf-8")))
    found: list[str] = []
    citations = 0
    for path in sorted(set(_citing_files())):
        text = path.read_text(encoding="utf-8")
        citations += sum(1 for _ in _cited(text))
        found += [f"{path.relative_to(ROOT)}:{fault}" for fault in _faults(text, sections)]
    assert citations > 50, "the check found next to no citations: it looks at nothing"
    assert found == []


def test_a_citation_of_a_missing_section_is_found() -> None:
    """The check above would pass on one that saw nothing: these citations are wrong."""
    sections = {"1", "1a", "8", "8b", "8c"}
    text = (
        "the win (docs/rules.md 8)\n"
        "Muggins (docs/rules.md 9b, 8c) and sections 8b and 10\n"
        "[rules.md](rules.md) section 1a, then see RULES.md 8b\n"
        "Section 2's deal\n"
    )
    assert _faults(text, sections) == [
        "2: section 9b",
        "2: section 10",
        "4: section 2",
        "3: RULES.md (the rulebook is docs/rules.md)",
    ]
