"""The registry of house rules (rules/options.py) and the resolved rules agree: every rule is
a field of Rules, each of its values reads back as the record spells it, and a variation is
off in every preset."""

from __future__ import annotations

import re
from dataclasses import MISSING, fields
from pathlib import Path

import pytest

from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.options import (
    HOUSE_RULES,
    PRESETS,
    SEED_RULES,
    VARIATIONS,
    YES_NO,
    HouseRule,
    OptionValue,
    Rules,
    resolve,
)


def values_of(rule: HouseRule) -> list[OptionValue]:
    """Every value ``rule`` takes (a range's ends and a step inside it)."""
    if rule.number_choices:
        return list(rule.number_choices)
    if rule.numbers is not None:
        return sorted({rule.numbers[0], rule.numbers[1], rule.numbers[-1]})
    return list(rule.choices)


def test_every_house_rule_is_a_field_of_the_resolved_rules_and_no_other() -> None:
    names = [rule.name for rule in HOUSE_RULES]
    assert len(names) == len(set(names))
    assert {f.name for f in fields(Rules)} - {"preset", "players"} == set(names)
    assert HOUSE_RULES == SEED_RULES + VARIATIONS


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
def test_each_value_of_each_rule_reads_back_as_the_record_spells_it(rule: HouseRule) -> None:
    for value in values_of(rule):
        rules = resolve("totally-fives", 3, {rule.name: value})
        assert rules.value(rule.name) == value


@pytest.mark.parametrize("rule", HOUSE_RULES, ids=lambda rule: rule.name)
def test_each_preset_resolves_to_the_registrys_defaults(rule: HouseRule) -> None:
    for preset in PRESETS:
        for players in (2, 3, 4):
            rules = resolve(preset, players, {})
            assert rules.value(rule.name) == rule.default(preset, players), (preset, players)


@pytest.mark.parametrize("rule", VARIATIONS, ids=lambda rule: rule.name)
def test_a_variation_is_off_in_every_preset_and_in_the_rules_default(rule: HouseRule) -> None:
    (field,) = (f for f in fields(Rules) if f.name == rule.name)
    assert field.default is not MISSING
    off = resolve("all-fives", 2, {}).value(rule.name)
    assert {rule.default(preset, players) for preset in PRESETS for players in (2, 3, 4)} == {off}
    held = "yes" if field.default is True else "no" if field.default is False else field.default
    assert held == off


WORDS = [rule for rule in HOUSE_RULES if rule.choices and rule.choices != YES_NO]
"""The rules that take one of a few words (yes/no is read before, by parse_options)."""


@pytest.mark.parametrize("rule", WORDS, ids=lambda rule: rule.name)
def test_a_word_outside_a_rule_is_refused_when_the_rules_are_resolved(rule: HouseRule) -> None:
    with pytest.raises(MalformedInput):
        resolve("all-fives", 2, {rule.name: "maybe"})


ROOT = Path(__file__).resolve().parents[2]


def test_the_docs_name_every_house_rule() -> None:
    """The README's table of house rules, the record's ``options`` and the rules each name
    every rule of the registry (the docs are written by hand; this finds one left out)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = re.findall(r"^\| `(\w+)` \|", readme, flags=re.MULTILINE)
    options = (ROOT / "docs" / "game-record.md").read_text(encoding="utf-8")
    (options_row,) = (line for line in options.splitlines() if line.startswith("| `options` |"))
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in HOUSE_RULES:
        assert rule.name in table, rule.name
        assert f"`{rule.name}`" in options_row, rule.name
        assert f"`{rule.name}`" in rules, rule.name
