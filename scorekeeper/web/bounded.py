"""The one cache the site builds by hand: a bounded, thread-safe map that forgets the least
recently used entry first (and, on it, what is derived from objects that never change).

Where a value depends only on a function's arguments, ``functools.lru_cache`` keeps it; this is
for the rest: a value kept under a key worked out from its inputs (a layout's scene), or one a
caller puts in when it has it (a game just replayed, kept only if it is newer); and how big a
setting makes one.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

from flask import Flask

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = TypeVar("P")


class Bounded(Generic[K, V]):
    """At most ``capacity`` values by key; getting or putting one makes it the most recent."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept under ``key``, or None."""
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: K, value: V, replaces: Callable[[V], bool] | None = None) -> None:
        """Keep ``value`` under ``key``; over a value already kept only if ``replaces(kept)``
        says so (always, without it). The least recently used go past ``capacity``."""
        with self._lock:
            kept = self._entries.get(key)
            if kept is None or replaces is None or replaces(kept):
                self._entries[key] = value
                self._entries.move_to_end(key)
            while len(self._entries) > self.capacity:
                self._entries.popitem(last=False)

    def kept(self, key: K, make: Callable[[], V]) -> V:
        """The value under ``key``, made by ``make()`` and kept the first time it is asked for
        (made outside the lock: two threads may both make it, and either is right)."""
        value = self.get(key)
        if value is None:
            value = make()
            self.put(key, value)
        return value

    def resize(self, capacity: int) -> None:
        """Keep at most ``capacity`` values from now on (the least recently used go now)."""
        with self._lock:
            self.capacity = capacity
            while len(self._entries) > capacity:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget everything kept."""
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)


class Derived(Generic[P, V]):
    """Values worked out from objects that are never changed once made (a game's finished
    hands), kept by the object's identity, at most ``capacity`` of them.

    The object is kept with its value: while the entry lives, no other object can be given
    its ``id``, so an entry found under an ``id`` is the one made from that very object.
    """

    def __init__(self, capacity: int) -> None:
        self._kept: Bounded[tuple[int, Hashable], tuple[P, V]] = Bounded(capacity)

    def _found(self, thing: P, also: Hashable) -> tuple[P, V] | None:
        """The entry made from this very ``thing`` (and ``also``), if it is kept."""
        kept = self._kept.get((id(thing), also))
        return kept if kept is not None and kept[0] is thing else None

    def _keep(self, thing: P, also: Hashable, value: V) -> V:
        self._kept.put((id(thing), also), (thing, value))
        return value

    def of(self, thing: P, make: Callable[[], V], also: Hashable = None) -> V:
        """The value of ``thing`` (and ``also``, such as a language): kept, or ``make()``."""
        found = self._found(thing, also)
        return found[1] if found is not None else self._keep(thing, also, make())

    def grown(
        self, parts: Sequence[P], start: V, add: Callable[[V, P], V], also: Hashable = None
    ) -> V:
        """``start`` with ``add`` applied for each of ``parts`` in turn, kept under the last
        part: asked again with one part more (a game a hand longer), it adds just that one."""
        if not parts:
            return start
        found = self._found(parts[-1], also)
        if found is not None:
            return found[1]
        before = self._found(parts[-2], also) if len(parts) > 1 else None
        value, todo = (before[1], parts[-1:]) if before is not None else (start, parts)
        for part in todo:
            value = add(value, part)
        return self._keep(parts[-1], also, value)

    def clear(self) -> None:
        """Forget everything kept."""
        self._kept.clear()


def capacity_setting(app: Flask, name: str, default: int) -> int:
    """The size setting ``name`` of ``app`` (a whole number of at least 1), ``default`` when
    unset; a clear error at start-up for anything else."""
    value = app.config.setdefault(name, default)
    try:
        # A bool is an int to Python, and int() would cut a float short: neither is a size.
        whole = isinstance(value, int | str) and not isinstance(value, bool)
        number = int(value) if whole else 0
    except ValueError:
        number = 0
    if number < 1:
        raise ValueError(f"The setting {name} must be a whole number of at least 1, not {value!r}")
    return number
