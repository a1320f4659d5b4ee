"""The token an entry form carries never comes back: a page that fell behind is refused even
when the game again has as many events as the page saw."""

from __future__ import annotations

from html import unescape

from tests.web.webtable import page_seq, page_version, started


def test_an_undo_from_a_page_that_missed_an_undo_and_a_new_entry_is_refused(app, client):
    table = started(client)  # Ann leads hand 1
    table.play("6-6")
    table.play("6-4", "W")  # Bob's 6-4 on W: event 3
    phone_a = unescape(table.page())
    assert page_seq(phone_a) == 3 and "Undo Bob's 6-4 on W" in phone_a

    phone_b = app.test_client()
    assert phone_b.post(f"{table.url}/undo", data={"version": table.version()}).status_code == 303
    entered = phone_b.post(
        f"{table.url}/play", data={"version": table.version(), "tile": "6-5", "end": "E"}
    )
    assert entered.status_code == 303
    assert table.seq() == 3, "the same number of events as phone A saw"

    response = client.post(f"{table.url}/undo", data={"version": page_version(phone_a)})
    assert response.status_code == 409
    page = unescape(response.get_data(as_text=True))
    assert "The table had changed: nothing was entered." in page
    assert "Undo Bob's 6-5 on E" in page, "the 6-5 phone A never saw is still there"
    assert table.seq() == 3 and "Undo Bob's 6-5 on E" in unescape(table.page())


def test_every_change_gives_the_forms_a_new_version(client):
    table = started(client)
    seen = [table.version()]
    for action, data in (
        ("play", {"tile": "6-6"}),
        ("undo", {}),
        ("play", {"tile": "6-6"}),
        ("draw", {}),
        ("undo", {}),
    ):
        assert table.post(action, data).status_code == 303
        seen.append(table.version())
    assert seen == sorted(set(seen)), f"the version went back or stood still: {seen}"
