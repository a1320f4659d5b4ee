"""The site's one hand-built cache: bounded, least recently used first out."""

from __future__ import annotations

from scorekeeper.web.bounded import Bounded, Derived


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


class Part:
    """An object that is never changed once made (as a game's finished hand)."""

    def __init__(self, value: int) -> None:
        self.value = value


def test_derived_values_grow_a_part_at_a_time_and_never_outlive_their_object() -> None:
    made: list[int] = []

    def add(total: int, part: Part) -> int:
        made.append(part.value)
        return total + part.value

    kept: Derived[Part, int] = Derived(8)
    parts = [Part(n) for n in (1, 2, 3)]
    assert kept.grown(parts, 0, add) == 6 and made == [1, 2, 3]
    assert kept.grown(parts, 0, add) == 6 and made == [1, 2, 3]  # kept
    parts.append(Part(10))
    assert kept.grown(parts, 0, add) == 16 and made == [1, 2, 3, 10]  # one part added
    # An earlier part made again (a hand undone and played anew) is a new object: the value
    # kept for the old one is not used, even if the new one's id were the same.
    parts[1] = Part(20)
    assert kept.grown(parts[:2], 0, add) == 21
    assert kept.of(parts[0], lambda: 99) == 99 and kept.of(parts[0], lambda: 0) == 99
    assert kept.of(parts[0], lambda: 7, also="sv") == 7  # another language, its own value
    kept.clear()
    assert kept.of(parts[0], lambda: 5) == 5
