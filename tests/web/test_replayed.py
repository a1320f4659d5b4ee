"""The per-process cache of replayed games always equals a full replay of the live events.

Two worker processes are played by two caches swapped in turn: each request may land on
either, so each cache often holds a game another "process" has changed since (appended,
undone, redone, settled, the lead turned round), and must catch up instead of trusting it.
"""

from __future__ import annotations

import random

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

from scorekeeper.rules import Event, Game, NewHand, Play, Refusal, Setup, tile
from scorekeeper.rules.entering import CannotTurn, turnable_lead
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.stored import event_of
from scorekeeper.web.data import games, replayed
from scorekeeper.web.data.database import db
from scorekeeper.web.data.games import reading
from scorekeeper.web.data.models import EventRow, GameRow
from tests.web.webtable import new_game, started

SETUPS = [
    Setup.create(["Ann", "Bob"]),
    Setup.create(["Ann", "Bob", "Cy"], "fives-up"),
    Setup.create(["Ann", "Bob", "Cy", "Dee"], "totally-fives"),
]


def stored_game(edit_key: str) -> Game:
    """The game replayed from scratch from every live stored event, without any cache."""
    row = db.session.scalars(select(GameRow).where(GameRow.edit_key == edit_key)).one()
    rows = db.session.scalars(
        select(EventRow)
        .where(EventRow.game_id == row.id, EventRow.undone_at.is_(None))
        .order_by(EventRow.seq)
    ).all()
    return Game(games.setup_of(row), [event_of(r.kind, r.data) for r in rows])


def seen(game: Game) -> tuple[object, ...]:
    """What the table shows of a game: events, scores, winner, every hand's state."""
    return (
        tuple(game.events),
        tuple(game.scores),
        game.winner,
        game.phase,
        tuple(
            (
                h.number,
                tuple(h.held),
                h.boneyard,
                h.turn,
                tuple(h.plays),
                h.result,
                h.settlement,
                tuple(h.layout.ends()),
                h.layout.count(),
            )
            for h in game.hands
        ),
    )


def turn_round(edit_key: str) -> bool:
    """Turn the current lead round if it may be; whether it was."""
    loaded = games.load(edit_key)
    try:
        turnable_lead(loaded.game)
    except CannotTurn:
        return False
    hand = loaded.game.hand
    assert hand is not None
    games.turn_lead(edit_key, loaded.version, hand.layout.arms["E"].base)
    return True


def use(monkeypatch: pytest.MonkeyPatch, worker: replayed.ReplayedGames) -> None:
    """The next request lands on ``worker``, in a new transaction."""
    monkeypatch.setattr(replayed, "games", worker)
    db.session.rollback()


def stored_rows(edit_key: str) -> int:
    """How many event rows the game has stored, live or undone."""
    row = db.session.scalars(select(GameRow).where(GameRow.edit_key == edit_key)).one()
    count = select(func.count()).select_from(EventRow).where(EventRow.game_id == row.id)
    return int(db.session.scalar(count) or 0)


@pytest.mark.parametrize("seed", range(8))
def test_two_workers_caches_always_equal_a_full_replay(
    app: Flask, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    """Entries, undos, redos and turned leads through either worker: every load is the stored
    game's live events replayed whole, redo brings back exactly the latest undo while nothing
    was entered since, a page that missed a change is refused, and no row is ever deleted."""
    rng = random.Random(seed)
    setup = SETUPS[seed % len(SETUPS)]
    script = play_game(setup, random.Random(seed), max_hands=4).events
    workers = [replayed.ReplayedGames(), replayed.ReplayedGames()]
    redoable: list[list[Event]] = []
    """What each undo since the last entry took away, the latest last (the model of Redo)."""
    redone = 0
    with app.app_context():
        key = games.create(setup).row.edit_key
        versions = [games.load(key).version]
        rows = 0
        for _step in range(200):
            use(monkeypatch, rng.choice(workers))
            loaded = games.load(key)
            assert seen(loaded.game) == seen(stored_game(key))
            assert loaded.version == versions[-1]
            assert stored_rows(key) >= rows, "an undo or a redo deleted a stored event"
            rows = stored_rows(key)
            seq = loaded.seq
            assert loaded.game.events[: len(script)] == script[:seq]
            if rng.random() < 0.15 and len(versions) > 1:
                # A page that missed a change (another phone's): refused, nothing changes.
                old = rng.choice(versions[:-1])
                action = rng.choice(["undo", "redo", "append"])
                with pytest.raises(games.Stale):
                    if action == "undo":
                        games.undo(key, old)
                    elif action == "redo":
                        games.redo(key, old)
                    else:
                        games.append(key, old, script[seq : seq + 1])
                continue
            roll = rng.random()
            if roll < 0.25 and seq:
                _after, undone = games.undo(key, loaded.version)
                assert undone
                redoable.append(undone)
            elif roll < 0.45:
                if redoable:
                    _after, events = games.redo(key, loaded.version)
                    assert events == redoable.pop()[::-1]
                    redone += 1
                else:
                    with pytest.raises(games.NothingToRedo):
                        games.redo(key, loaded.version)
                    continue
            elif roll < 0.55 and turn_round(key):
                redoable.clear()
                versions.append(games.load(key).version)
                use(monkeypatch, rng.choice(workers))
                assert seen(games.load(key).game) == seen(stored_game(key))
                assert turn_round(key)
            elif seq < len(script):
                games.append(key, loaded.version, [script[seq]])
                redoable.clear()
            else:
                continue
            use(monkeypatch, rng.choice(workers))
            versions.append(games.load(key).version)
            assert versions[-1] > versions[-2], "a change must give the game a new version"
            if rng.random() < 0.1:
                # An older entry put late (a slow thread): it must never pass for the current.
                for worker in workers:
                    older = worker.get(key)
                    if older is not None:
                        rng.choice(workers).put(key, older)
        for worker in workers:
            use(monkeypatch, worker)
            assert seen(games.load(key).game) == seen(stored_game(key))
        assert redone, "the script never redid anything"


def test_an_entry_on_a_stale_cache_is_checked_against_the_stored_game(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Worker A last saw 2 events; worker B undid one and entered another: A must see B's."""
    setup = SETUPS[0]
    first = replayed.ReplayedGames()
    second = replayed.ReplayedGames()
    with app.app_context():
        monkeypatch.setattr(replayed, "games", first)
        created = games.create(setup, [NewHand(0)])
        key = created.row.edit_key
        game = games.load(key).game
        lead = tile(6, 4)
        games.append(key, created.version, [Play(0, lead)])
        seen_by_first = games.load(key)
        monkeypatch.setattr(replayed, "games", second)
        undone, _ = games.undo(key, seen_by_first.version)
        other = tile(5, 3)
        games.append(key, undone.version, [Play(0, other)])
        use(monkeypatch, first)
        now = games.load(key).game
        assert game.events == [NewHand(0)]
        assert seen_by_first.game.events[-1] == Play(0, lead)
        assert now.events[-1] == Play(0, other)
        assert seen(now) == seen(stored_game(key))
        with pytest.raises(games.Stale):
            games.append(key, seen_by_first.version, [Play(1, lead)])


def test_what_an_entry_keeps_is_what_the_database_gives_back(app: Flask) -> None:
    """An entry builds the cache's rows from what it wrote, without reading them back: they
    must be the very rows a later read gets (else every other worker would replay the game
    whole when it catches up)."""
    setup = SETUPS[1]
    events = play_game(setup, random.Random(7), max_hands=3).events
    with app.app_context():
        created = games.create(setup, events[:1])
        key, version = created.row.edit_key, created.version
        stored = 1
        for at, event in enumerate(events[:60]):
            if at < stored:
                continue  # the hand a settlement began, stored with it
            after = games.append(key, version, [event])
            version, stored = after.version, len(after.game.events)
            kept = replayed.games.get(key)
            assert kept is not None and kept.version == version
            found = reading.fetch_rows(created.row.id, None)
            assert found is not None
            assert found[0] == version
            assert kept.rows == tuple(found[1])
            db.session.rollback()
        assert seen(games.load(key).game) == seen(stored_game(key))


def test_a_refused_entry_takes_no_lock_and_writes_nothing(app: Flask) -> None:
    """The referee checks an entry before the write lock: a refusal sends no write at all."""
    setup = SETUPS[0]
    with app.app_context():
        created = games.create(setup, [NewHand(0), Play(0, tile(6, 4))])
        key = created.row.edit_key
        sent: list[str] = []

        def note(*args: object) -> None:
            sent.append(str(args[2]).split()[0].upper())

        event.listen(db.engine, "before_cursor_execute", note)
        try:
            with pytest.raises(Refusal):
                games.append(key, created.version, [Play(1, tile(2, 3))])
        finally:
            event.remove(db.engine, "before_cursor_execute", note)
        assert not {"BEGIN", "UPDATE", "INSERT"} & set(sent), sent
        db.session.rollback()
        assert games.load(key).version == created.version
        assert stored_rows(key) == 2


def test_an_entry_on_a_row_read_before_another_change_is_stale(app: Flask) -> None:
    """Two phones read the game at the same version; another worker's entry commits between
    this one's read and its write: the conditional update refuses it as stale, with nothing
    written. A game deleted meanwhile is gone."""
    setup = SETUPS[0]
    with app.app_context():
        created = games.create(setup, [NewHand(0)])
        key, game_id = created.row.edit_key, created.row.id
        first_phone = games.load(key)
        db.session.commit()
        lead = {"player": 0, "tile": "6-4", "end": None, "flipped": False}
        with db.engine.begin() as other_worker:
            other_worker.execute(
                EventRow.__table__.insert().values(game_id=game_id, seq=2, kind="play", data=lead)
            )
            other_worker.execute(
                GameRow.__table__.update()
                .where(GameRow.id == game_id)
                .values(version=GameRow.version + 1)
            )
        # This worker still holds the game and its row as they were before that entry.
        assert replayed.games.get(key).version == first_phone.version  # type: ignore[union-attr]
        with pytest.raises(games.Stale):
            games.append(key, first_phone.version, [Play(0, tile(5, 5))], first_phone)
        db.session.rollback()
        assert stored_game(key).events == [NewHand(0), Play(0, tile(6, 4))]
        assert stored_rows(key) == 2
        now = games.load(key)
        db.session.commit()
        with db.engine.begin() as other_worker:
            other_worker.execute(
                GameRow.__table__.update()
                .where(GameRow.id == game_id)
                .values(deleted_at=func.current_timestamp())
            )
        with pytest.raises(games.NotFound):
            games.append(key, now.version, [Play(1, tile(4, 4))], now)
        assert stored_rows(key) == 2


def test_a_play_reads_its_game_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The entry goes on from the game the page loaded: one lookup of the game's setup and
    replay a play, not one for the page and another for the write."""
    table = new_game(client, ["Ann", "Bob"], leader="table")
    assert table.post("lead", {"how": "seat", "leader": "0"}).status_code == 303
    version = table.version()
    looked_up: list[str] = []
    real = reading.setup_of

    def counted(row: GameRow) -> Setup:
        looked_up.append(row.edit_key)
        return real(row)

    monkeypatch.setattr(reading, "setup_of", counted)
    assert table.post("play", {"tile": "6-4"}, version).status_code == 303
    assert looked_up == [table.key]


# -- how many games a process keeps --------------------------------------------------------------


def test_the_number_of_games_kept_is_a_setting_and_a_forgotten_game_still_opens(make_app):
    app = make_app(LIVE_GAMES=2, WTF_CSRF_ENABLED=False, RATELIMIT_ENABLED=False)
    try:
        client = app.test_client()
        replayed.games.clear()
        tables = [started(client) for _ in range(3)]
        for table in tables:
            assert table.play("5-5").status_code == 303
        assert len(replayed.games) == 2
        # The first game was forgotten by this process: it is replayed from the database.
        assert tables[0].scores() == {"Ann": 10, "Bob": 0}
        assert tables[0].play("5-4", "E").status_code == 303
        assert tables[0].scores() == {"Ann": 10, "Bob": 0}
        assert len(replayed.games) == 2
    finally:
        replayed.games.resize(replayed.CAPACITY)


@pytest.mark.parametrize("value", ["lots", "0", -3, 2.5, True])
def test_a_size_that_is_not_a_whole_number_stops_the_app_at_start(make_app, value):
    for name in ("LIVE_GAMES", "KEPT_PAGES"):
        with pytest.raises(ValueError, match=f"setting {name} must be a whole number"):
            make_app(**{name: value})
    assert len(replayed.games) <= replayed.CAPACITY
