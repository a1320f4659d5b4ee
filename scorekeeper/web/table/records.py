"""A game as an ``all-fives/1`` record: its download, and a new game made from one."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import (
    Response,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)

from scorekeeper.rules import (
    RecordRefusal,
)
from scorekeeper.rules.errors import MalformedInput
from scorekeeper.rules.game import Setup
from scorekeeper.rules.house_rule import OptionValue
from scorekeeper.rules.messages import Message, say, say_list
from scorekeeper.rules.options import HOUSE_RULES_BY_NAME, PRESET_TITLES
from scorekeeper.rules.record import Timed, left_out, load_timed, write_record
from scorekeeper.rules.record_json import parse_json
from scorekeeper.rules.rulebook import PARTNERS_TITLE, PARTNERS_VALUE_TEXTS
from scorekeeper.web import languages
from scorekeeper.web.data import games
from scorekeeper.web.data.doors import DOORS, load_or_404, remember
from scorekeeper.web.data.games import (
    download_name,
)
from scorekeeper.web.data.loaded import EDIT
from scorekeeper.web.htmx import Answer
from scorekeeper.web.languages import gettext as _
from scorekeeper.web.routes import route
from scorekeeper.web.table.answers import (
    INCOMPLETE,
)
from scorekeeper.web.table.blueprint import bp
from scorekeeper.web.table.forms import (
    ImportForm,
)


@bp.get(f"/{DOORS}/<key:key>/record.json")
def record(door: str, key: str) -> Response:
    """Download the game as an all-fives/1 record (behind either door), with its times."""
    loaded = load_or_404(key, door)
    assert loaded.replayed is not None, "a loaded game comes with the rows it was replayed from"
    times = games.record_times(loaded.row, loaded.replayed)
    body = (
        json.dumps(write_record(loaded.game, times, every_rule=True), indent=2, ensure_ascii=False)
        + "\n"
    )
    response = Response(body, mimetype="application/json")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="{download_name(loaded.row)}.json"'
    )
    return response


@dataclass(frozen=True)
class LeftOut:
    """A house rule a record leaves out, as the import shows it before storing anything:
    its name, title, the value it will take (``value``, as the record spells it) and the
    values the table may choose instead, each with its words (none for a number)."""

    name: str
    title: Message
    value: str
    words: Message | str
    choices: tuple[tuple[str, Message | str], ...]
    note: Message | None = None


_TOTALLY_FIVES_NOTE = say(
    "Totally Fives kept this bonus in points (no) until 26 November 2026, and its exports "
    "did not name it: a record exported before then keeps the scores it had with no."
)
"""The one default a preset has changed so far (migration 0394bad6dbdb)."""


def _spelled(value: OptionValue | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _words(texts: Mapping[str, Message | str], value: str) -> Message | str:
    """A value's plain words, or the value itself where it has none (a number)."""
    return texts.get(value, value)


def left_out_rules(setup: Setup) -> list[LeftOut]:
    """The house rules the record read into ``setup`` leaves out, as the imports (a game's
    and a club's batch) list them."""
    shown: list[LeftOut] = []
    for name, value in left_out(setup):
        spelled = _spelled(value)
        choices: tuple[tuple[str, Message | str], ...]
        if name == "partners":
            choices = tuple((v, PARTNERS_VALUE_TEXTS[v]) for v in ("yes", "no"))
            shown.append(
                LeftOut(name, PARTNERS_TITLE, spelled, PARTNERS_VALUE_TEXTS[spelled], choices)
            )
            continue
        rule = HOUSE_RULES_BY_NAME[name]
        values = rule.choices or tuple(map(str, rule.number_choices))
        choices = tuple((v, _words(rule.value_texts, v)) for v in values)
        note = None
        if name == "bonus_in_fives" and setup.preset == "totally-fives":
            note = _TOTALLY_FIVES_NOTE
        words = _words(rule.value_texts, spelled)
        shown.append(LeftOut(name, rule.title, spelled, words, choices, note))
    return shown


def _taken(record: dict[str, Any], setup: Setup) -> dict[str, Any]:
    """``record`` with the values the import page chose for the house rules it left out
    (only those with a choice: a number left out takes its preset's value)."""
    options = dict(record.get("options") or {})
    taken = dict(record)
    for entry in left_out_rules(setup):
        chosen = request.form.get(f"take-{entry.name}")
        if chosen is None or not entry.choices:
            continue
        if chosen not in {value for value, _words in entry.choices}:
            raise MalformedInput(
                say(
                    "House rule %(rule)s is one of %(choices)s; not %(given)s.",
                    rule=entry.name,
                    choices=", ".join(value for value, _words in entry.choices),
                    given=json.dumps(chosen),
                )
            )
        if entry.name == "partners":
            taken["partners"] = chosen == "yes"
        elif HOUSE_RULES_BY_NAME[entry.name].number_choices:
            options[entry.name] = int(chosen)
        else:
            options[entry.name] = chosen
    if options:
        taken["options"] = options
    return taken


@bp.route("/games/import", methods=["GET", "POST"])
@route(starts_games=True)
def import_game() -> Answer:
    """Create a game from an all-fives/1 record, or show why the record is refused; the
    game keeps the times the record gives (else it was played now).

    A record that leaves out house rules (an export names them all) is not stored at once:
    the page lists them with the values they will take, the preset's today, each one the
    table may change (an old Totally Fives export kept its bonus in points), and the record
    is imported from there with them named."""
    form = ImportForm()
    if request.method == "GET":
        return render_template("import.html", form=form), 200
    if not form.validate():
        return render_template("import.html", form=form, problem=INCOMPLETE), 400
    upload = form.record.data
    data: bytes | str = upload.read() if upload else b""
    if not data:
        data = form.text.data or ""
    if not data.strip():
        problem = _("Choose a record file or paste a record: nothing was imported.")
        return render_template("import.html", form=form, problem=problem), 422
    try:
        timed = load_timed(data, unsettled_last_hand=True)
        missing = left_out_rules(timed.game.setup)
        if missing and form.taking.data:
            parsed = parse_json(data)
            assert isinstance(parsed, dict), "a record that loads is an object"
            taken = _taken(parsed, timed.game.setup)
            timed = load_timed(json.dumps(taken), unsettled_last_hand=True)
        elif missing:
            return _left_out_page(form, timed, data, missing)
    except RecordRefusal as refusal:
        return render_template("import.html", form=form, refusal=refusal), 422
    except MalformedInput as refused:
        located = RecordRefusal("record", refused.said, None, None)
        return render_template("import.html", form=form, refusal=located), 422
    game = timed.game
    loaded = games.create(game.setup, game.events, times=timed.times)
    remember(loaded.row, EDIT)
    flash(languages.said(say("Imported: %(players)s.", players=say_list(list(game.players)))))
    return redirect(url_for("games.table", key=loaded.row.edit_key), code=303)


def _left_out_page(
    form: ImportForm, timed: Timed, data: bytes | str, missing: list[LeftOut]
) -> Answer:
    """The import page listing the house rules the record leaves out; nothing stored."""
    parsed = parse_json(data)
    form.text.data = json.dumps(parsed, ensure_ascii=False)
    setup = timed.game.setup
    return (
        render_template(
            "import.html",
            form=form,
            left_out=missing,
            preset_title=PRESET_TITLES[setup.preset],
            players=say_list(list(setup.players)),
        ),
        200,
    )
