"""The site's one hand-built cache: bounded, least recently used first out."""

from __future__ import annotations

from scorekeeper.web.bounded import Bounded


def test_the_least_recently_used_goes_first() -> None:
    kept: Bounded[str, int] = Bounded(2)
    kept.put("a", 1)
    kept.put("b", 2)
    assert kept.get("a") == 1  # a is now the most recent
    kept.put("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)
    assert len(kept) == 2


def test_a_value_is_made_once_and_kept() -> None:
    kept: Bounded[str, list[int]] = Bounded(4)
    made: list[int] = []

    def make() -> list[int]:
        made.append(1)
        return [len(made)]

    assert kept.kept("x", make) is kept.kept("x", make)
    assert made == [1]


def test_a_put_can_refuse_to_replace_a_newer_value() -> None:
    kept: Bounded[str, int] = Bounded(4)
    kept.put("game", 7)
    kept.put("game", 5, replaces=lambda known: known <= 5)
    assert kept.get("game") == 7
    kept.put("game", 9, replaces=lambda known: known <= 9)
    assert kept.get("game") == 9
    kept.clear()
    assert kept.get("game") is None
