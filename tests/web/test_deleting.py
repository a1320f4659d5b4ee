"""Deleting an unfinished game: only by its edit link, after a confirmation, undoable for a
while from My games; a deleted game is a 404 behind both links, and purged later."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from html import unescape
from pathlib import Path

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, text, update

from app import create_app
from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import EventRow, GameRow, now
from tests.web.database import OTHER_DATABASE, database_uri, empty
from tests.web.webforms import form_for, read_forms
from tests.web.webtable import FINISHED, LEGAL, NO_KEY, Table, import_record, started

BEFORE_DELETING = "c3d1f0a7b2e4"
"""The schema before games could be deleted."""


def confirm_page(table: Table, back: str | None = None) -> str:
    """The confirmation page, as the game page (or My games, with back=index) links to it."""
    url = f"{table.url}/delete" + (f"?back={back}" if back else "")
    response = table.client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def delete(table: Table) -> str:
    """Confirm the deletion as a browser does; My games as shown after it."""
    form = form_for(confirm_page(table), "/delete")
    response = table.client.post(form.action, data=form.data())
    assert response.status_code == 303
    assert response.headers["Location"] == "/"
    return unescape(table.client.get("/").get_data(as_text=True))


def age_deletions(app: Flask, minutes: int) -> None:
    """Every deletion happened ``minutes`` minutes earlier than it did."""
    with app.app_context():
        db.session.execute(
            update(GameRow)
            .where(GameRow.deleted_at.is_not(None))
            .values(deleted_at=GameRow.deleted_at - timedelta(minutes=minutes))
        )
        db.session.commit()


def game_count(app: Flask) -> tuple[int, int]:
    """How many game rows and event rows the database holds (deleted or not)."""
    with app.app_context():
        games = db.session.scalar(select(func.count()).select_from(GameRow))
        events = db.session.scalar(select(func.count()).select_from(EventRow))
        return games, events


def test_the_game_page_and_my_games_link_to_a_confirmation(client):
    table = started(client)
    page = table.page()
    assert f'href="{table.url}/delete" data-delete-link' in page
    assert f'href="{table.url}/delete?back=index"' in client.get("/").get_data(as_text=True)
    confirm = unescape(confirm_page(table))
    assert "Delete this game?" in confirm
    assert "For 10 minutes My games on this browser can undo it" in confirm
    assert f'<a class="button" href="{table.url}" data-back>Keep it</a>' in confirm
    assert '<a class="button" href="/" data-back>Keep it</a>' in confirm_page(table, back="index")
    assert table.seq() == 1, "asking deletes nothing"


def test_a_deleted_game_is_gone_behind_both_links_and_undo_is_offered(client):
    table = started(client)
    table.play("5-5")
    watch = table.watch_url()
    seq, version = table.seq(), table.version()
    assert client.get(f"{watch}/live", headers={"HX-Request": "true"}).status_code == 200
    home = delete(table)
    assert "Deleted: Ann and Bob. Undo it below within 10 minutes" in home
    assert re.search(rf'<form method="post" action="{table.url}/restore"', home)
    assert "No game in progress." in home
    for url in (table.url, watch, f"{watch}/log", f"{table.url}/record.json", f"{watch}/board"):
        assert client.get(url).status_code == 404, url
    assert client.get(f"{watch}/live", headers={"HX-Request": "true"}).status_code == 404
    assert table.post("draw", {}, version=version).status_code == 404
    assert client.get(f"{table.url}/delete").status_code == 404

    restored = client.post(f"{table.url}/restore")
    assert restored.status_code == 303 and restored.headers["Location"] == "/"
    home = unescape(client.get("/").get_data(as_text=True))
    assert "Restored: Ann and Bob. Both its links work again." in home
    assert f'href="{table.url}"' in home
    assert table.seq() == seq, "every entry is back"
    assert client.get(watch).status_code == 200


def test_undo_is_too_late_after_the_window_and_old_deletions_are_purged(app, client):
    first = started(client)
    delete(first)
    age_deletions(app, 11)
    home = client.get("/").get_data(as_text=True)
    assert f"{first.url}/restore" not in home
    late = client.post(f"{first.url}/restore")
    assert late.status_code == 404
    assert "can no longer be restored" in late.get_data(as_text=True)
    assert game_count(app) == (1, 1), "kept until the next purge"

    second = started(client)
    delete(second)
    assert game_count(app) == (1, 1), "the first game and its event are gone for good"
    assert f"{second.url}/restore" in client.get("/").get_data(as_text=True)


def test_the_purge_command_removes_what_can_no_longer_be_restored(app, client, runner):
    delete(started(client))
    assert "Purged 0 deleted games." in runner.invoke(args=["purge-deleted"]).output
    age_deletions(app, 11)
    assert "Purged 1 deleted game." in runner.invoke(args=["purge-deleted"]).output
    assert game_count(app) == (0, 0)


def test_undo_belongs_to_the_browser_that_has_the_edit_link(app, client):
    table = started(client)
    delete(table)
    other = app.test_client()
    assert f"{table.url}/restore" not in other.get("/").get_data(as_text=True)


def test_a_finished_game_cannot_be_deleted(client):
    table = import_record(client, FINISHED)
    assert "data-delete-link" not in table.page()
    page = client.get(f"{table.url}/delete")
    assert page.status_code == 409
    assert "A finished game cannot be deleted" in page.get_data(as_text=True)
    assert 'action="' + f'{table.url}/delete"' not in page.get_data(as_text=True)
    refused = client.post(f"{table.url}/delete")
    assert refused.status_code == 409
    assert client.get(table.url).status_code == 200
    home = client.get("/").get_data(as_text=True)
    assert "data-delete-link" not in home


def test_only_the_edit_link_deletes(client):
    table = started(client)
    watch = table.watch_url()
    assert client.get(f"{watch}/delete").status_code == 404
    assert client.post(f"{watch}/delete").status_code == 404
    assert client.post(f"/games/{NO_KEY}/delete").status_code == 404
    assert client.post(f"/games/{NO_KEY}/restore").status_code == 404
    assert table.seq() == 1


def test_watching_a_game_offers_no_deletion_in_my_games(app, client):
    table = started(client)
    watcher = app.test_client()
    watch = table.watch_url()
    assert watcher.get(watch).status_code == 200
    home = watcher.get("/").get_data(as_text=True)
    assert "Ann, Bob" in home and "data-delete-link" not in home


@pytest.fixture
def strict(make_app: Callable[..., Flask]) -> FlaskClient:
    """An app with CSRF protection and the rate limits on, as in production."""
    return make_app(RATELIMIT_ENTRIES="3 per minute").test_client()


def test_deleting_needs_the_csrf_token_and_counts_against_the_games_entries(strict):
    page = strict.get("/games/import").get_data(as_text=True)
    form = form_for(page, "/games/import")
    # taking: the house rules LEGAL leaves out take their values at once (one request).
    response = strict.post("/games/import", data=form.data(text=json.dumps(LEGAL), taking="1"))
    assert response.status_code == 303
    url = response.headers["Location"]
    assert strict.post(f"{url}/delete").status_code == 400, "no token: the page expired"
    assert strict.get(url).status_code == 200
    confirm = form_for(strict.get(f"{url}/delete").get_data(as_text=True), "/delete")
    assert strict.post(confirm.action, data=confirm.data()).status_code == 303
    home = strict.get("/").get_data(as_text=True)
    undo = next(f for f in read_forms(home) if f.action.endswith("/restore"))
    assert strict.post(undo.action, data=undo.data()).status_code == 303
    refused = strict.post(confirm.action, data=confirm.data())
    assert refused.status_code == 429
    assert "Too many entries were sent for this game" in refused.get_data(as_text=True)
    assert strict.get(url).status_code == 200, "over the limit, nothing was deleted"


def test_the_migration_adds_the_column_and_keeps_every_event(tmp_path: Path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
            "SQLALCHEMY_DATABASE_URI": database_uri(tmp_path / "old.sqlite"),
        }
    )
    client = app.test_client()
    with app.app_context():
        if OTHER_DATABASE:
            empty(db.engine)
        flask_migrate.upgrade(revision=BEFORE_DELETING)
        stamp = now()
        for players in (["Ann", "Bob"], ["Cy", "Di"]):
            game = db.session.execute(
                text(
                    "INSERT INTO game (created_at, updated_at, players, preset, options, status,"
                    " edit_key, watch_key, version) VALUES (:now, :now, :players, 'all-fives',"
                    " '{}', 'play', :edit, :watch, 1) RETURNING id"
                ),
                {
                    "now": stamp,
                    "players": json.dumps(players),
                    "edit": f"{players[0]:A<22}",
                    "watch": f"{players[0]:W<22}",
                },
            ).scalar_one()
            db.session.execute(
                text(
                    "INSERT INTO event (game_id, seq, kind, data, created_at)"
                    " VALUES (:game, 1, 'new_hand', '{\"leader\": 0}', :now)"
                ),
                {"game": game, "now": stamp},
            )
        db.session.commit()
        flask_migrate.upgrade()
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 2
        assert (
            db.session.execute(
                text("SELECT count(*) FROM game WHERE deleted_at IS NULL")
            ).scalar_one()
            == 2
        )
        db.session.remove()

    ann = Table(client, "Ann" + "A" * 19)
    assert "Ann to lead" in ann.page()
    assert client.post(f"{ann.url}/delete").status_code == 303

    with app.app_context():
        db.session.remove()
        flask_migrate.downgrade(revision=BEFORE_DELETING)
        rows = db.session.execute(text("SELECT players FROM game")).all()
        # SQLite hands back the JSON text, PostgreSQL's driver the decoded list.
        players = [row[0] if isinstance(row[0], list) else json.loads(row[0]) for row in rows]
        assert players == [["Cy", "Di"]], "deleted stays deleted"
        assert db.session.execute(text("SELECT count(*) FROM event")).scalar_one() == 1
        db.session.remove()
        db.engine.dispose()
