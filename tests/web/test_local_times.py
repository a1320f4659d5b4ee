"""Times are written for the reader's time zone: ``<time datetime="...Z">`` with UTC text that
static/js/local-time.js rewrites in the browser (see tests/browser/test_time_zones.py)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

import pytest
from sqlalchemy import update

from scorekeeper.web.data.database import db
from scorekeeper.web.data.models import GameRow
from scorekeeper.web.site.times import local_time, utc_iso
from tests.web.webtable import FINISHED, import_record, new_game

LATE = datetime(2026, 11, 22, 23, 30)
"""Half past eleven at night, UTC: already the next day east of Greenwich."""


def set_times(app, when: datetime) -> None:
    """Every stored game was started and last changed at ``when`` (naive UTC)."""
    with app.app_context():
        db.session.execute(update(GameRow).values(created_at=when, updated_at=when))
        db.session.commit()


def test_my_games_write_each_time_for_the_browser_with_utc_text(app, client):
    new_game(client, ["Ann", "Bob"])
    import_record(client, FINISHED)
    set_times(app, LATE)
    page = client.get("/").get_data(as_text=True)
    assert (
        '<time datetime="2026-11-22T23:30:00Z" data-local="datetime">22 Nov 2026, 23:30 UTC</time>'
        in page
    )
    assert '<time datetime="2026-11-22T23:30:00Z" data-local="date">22 Nov 2026</time>' in page
    assert "Ann won" in page


def test_the_score_sheet_writes_its_day_and_start_for_the_browser(app, client):
    table = new_game(client, ["Ann", "Bob"])
    set_times(app, LATE)
    page = client.get(f"{table.url}/sheet").get_data(as_text=True)
    assert (
        '<time datetime="2026-11-22T23:30:00Z" data-local="long-date">22 November 2026</time>'
        in page
    )
    assert '<time datetime="2026-11-22T23:30:00Z" data-local="time">23:30 UTC</time>' in page


@pytest.mark.parametrize(
    ("language", "day", "clock", "when"),
    [
        ("sv", "22 november 2026", "23:30 UTC", "22 nov. 2026 23:30 UTC"),
        ("fil", "Nobyembre 22, 2026", "11:30\u202fPM UTC", "Nob 22, 2026, 11:30\u202fPM UTC"),
    ],
)
def test_each_language_writes_dates_and_times_its_own_way(
    app, client, language: str, day: str, clock: str, when: str
) -> None:
    client.get(f"/language/{language}?next=/")
    table = new_game(client, ["Ann", "Bob"])
    set_times(app, LATE)
    sheet = client.get(f"{table.url}/sheet").get_data(as_text=True)
    # The machine's time (datetime=) is the same in every language; only the words change.
    assert f'<time datetime="2026-11-22T23:30:00Z" data-local="long-date">{day}</time>' in sheet
    assert f'<time datetime="2026-11-22T23:30:00Z" data-local="time">{clock}</time>' in sheet
    mine = client.get("/").get_data(as_text=True)
    assert f'<time datetime="2026-11-22T23:30:00Z" data-local="datetime">{when}</time>' in mine


def test_pages_load_the_script_that_rewrites_them_from_a_file(client):
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<script src="/static/js/local-time\.js\?v=[0-9a-f]{12}" defer>', page)
    script = client.get("/static/js/local-time.js")
    assert script.status_code == 200
    assert b"time[data-local][datetime]" in script.data


def test_an_aware_time_is_written_in_utc() -> None:
    east = timezone(timedelta(hours=2))
    moment = datetime(2026, 11, 23, 1, 30, tzinfo=east)
    assert utc_iso(moment) == "2026-11-22T23:30:00Z"
    assert "22 Nov 2026, 23:30 UTC" in local_time(moment)
    assert utc_iso(datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)) == "2026-01-02T03:04:05Z"


def test_an_unknown_style_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="unknown time style"):
        local_time(LATE, "weekday")
