"""The table picture: where tiles lie (scorekeeper.web.drawing.picture) and how they are drawn (_dominoes.html)."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jinja2 import Environment, FileSystemLoader
from markupsafe import Markup

from scorekeeper.rules.events import Play
from scorekeeper.rules.game import Game, Setup
from scorekeeper.rules.layout import Layout
from scorekeeper.rules.simulate import play_game
from scorekeeper.rules.tiles import ALL_TILES, TILE_SETS, Tile, tile
from scorekeeper.web.drawing import dominoes
from scorekeeper.web.drawing.picture import SCALE, Picture, TileShape, picture
from tests.support.referee import spoken

SVG = "{http://www.w3.org/2000/svg}"
TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
TILE_LENGTH = 2 * SCALE


def build(mode: str, lead: tuple[int, int], plays: list[tuple[tuple[int, int], str]]) -> Layout:
    """A layout from a lead (W half first) and plays (tile, end)."""
    layout = Layout(mode)
    layout.place_lead(tile(*lead), flipped=lead[0] < lead[1])
    for halves, end in plays:
        assert end in layout.fits(tile(*halves)), (halves, end)
        layout.place(tile(*halves), end)
    return layout


def four_arms() -> Layout:
    """Lead 6-6 spinner with tiles on W, E, N and S, and a double in W and in N."""
    return build(
        "first",
        (6, 6),
        [((6, 3), "W"), ((6, 1), "E"), ((6, 4), "N"), ((6, 2), "S"), ((3, 3), "W"), ((4, 4), "N")],
    )


def shape(pic: Picture, name: str) -> TileShape:
    return next(s for s in pic.tiles if str(s.tile) == name)


def overlap(a: TileShape, b: TileShape) -> bool:
    eps = 1e-6
    return (
        a.x < b.x + b.width - eps
        and b.x < a.x + a.width - eps
        and a.y < b.y + b.height - eps
        and b.y < a.y + a.height - eps
    )


def simulated_layouts(mode: str, games: int, seed: int) -> Iterator[Layout]:
    """The layout after every play of simulated games with the given spinner rule."""
    rng = random.Random(seed)
    for number in range(games):
        players = [f"P{seat}" for seat in range(2 + number % 3)]
        setup = Setup.create(players, options={"spinners": mode})
        played = play_game(setup, rng, max_hands=3)
        replay = Game(setup)
        for event in played.events:
            replay.push(event)
            if isinstance(event, Play):
                assert replay.hand is not None
                yield replay.hand.layout


def check_markers_and_view(layout: Layout, pic: Picture) -> None:
    """Every open end has exactly one marker showing its number; the viewBox holds everything."""
    assert sorted((e.name, e.shows) for e in pic.ends) == sorted(
        (end.name, end.shows) for end in layout.ends()
    )
    vx, vy, vw, vh = pic.view_box
    for s in pic.tiles:
        assert vx <= s.x and s.x + s.width <= vx + vw
        assert vy <= s.y and s.y + s.height <= vy + vh
    for e in pic.ends:
        assert vx <= e.x - e.r and e.x + e.r <= vx + vw
        assert vy <= e.y - e.r and e.y + e.r <= vy + vh
    assert vw / vh <= 2.5 + 1e-9
    assert len(pic.tiles) == len(layout)


# -- geometry ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["none", "first"])
def test_no_tiles_overlap_and_pictures_stay_narrow(mode: str) -> None:
    count = 0
    for layout in simulated_layouts(mode, games=12, seed=7):
        pic = picture(layout)
        clashes = [
            (a.tile, b.tile) for a, b in itertools.combinations(pic.tiles, 2) if overlap(a, b)
        ]
        assert not clashes, {
            name: [str(p.tile) for p in arm.tiles] for name, arm in layout.arms.items()
        }
        check_markers_and_view(layout, pic)
        assert pic.view_box[2] <= 12 * TILE_LENGTH
        count += 1
    assert count > 300


def test_every_double_a_spinner_rarely_overlaps() -> None:
    """spinners=all: a later spinner's arm can be boxed in by others; it happens in under 1%."""
    layouts = clashing = 0
    widths = []
    for layout in simulated_layouts("all", games=12, seed=11):
        pic = picture(layout)
        check_markers_and_view(layout, pic)
        layouts += 1
        clashing += any(overlap(a, b) for a, b in itertools.combinations(pic.tiles, 2))
        widths.append(pic.view_box[2])
    assert layouts > 300
    assert clashing / layouts < 0.01
    assert sorted(widths)[int(0.95 * len(widths))] <= 12 * TILE_LENGTH


def test_arms_grow_west_east_up_and_down_from_the_spinner() -> None:
    pic = picture(four_arms())
    lead = shape(pic, "6-6")
    assert lead.orientation == "vertical" and lead.spinner
    west, east, north, south = (shape(pic, n) for n in ("6-3", "6-1", "6-4", "6-2"))
    assert west.x + west.width <= lead.x
    assert east.x >= lead.x + lead.width
    assert north.y + north.height <= lead.y
    assert south.y >= lead.y + lead.height
    assert (west.arm, east.arm, north.arm, south.arm) == ("W", "E", "N", "S")
    # The touching halves are adjacent: each arm's number faces outward at its tip.
    assert (west.first, west.second) == (3, 6)  # left half shows 3, the 6 touches the spinner
    assert (east.first, east.second) == (6, 1)
    assert (north.first, north.second, north.orientation) == (4, 6, "vertical")
    assert (south.first, south.second, south.orientation) == (6, 2, "vertical")


def test_doubles_lie_crosswise() -> None:
    pic = picture(four_arms())
    on_line, on_north = shape(pic, "3-3"), shape(pic, "4-4")
    assert on_line.double and on_line.orientation == "vertical"
    assert on_north.double and on_north.orientation == "horizontal"
    assert on_line.x + on_line.width <= shape(pic, "6-3").x
    assert on_north.y + on_north.height <= shape(pic, "6-4").y


def test_lead_halves_follow_the_entered_order() -> None:
    pic = picture(build("first", (4, 6), []))
    lead = shape(pic, "6-4")
    assert (lead.orientation, lead.first, lead.second) == ("horizontal", 4, 6)
    assert [(e.name, e.shows) for e in pic.ends] == [("W", 4), ("E", 6)]
    west, east = pic.ends
    assert west.x < lead.x and east.x > lead.x + lead.width


def test_a_long_line_turns_a_corner() -> None:
    chain = [(5, 1), (1, 1), (1, 3), (3, 4), (4, 6), (6, 6), (6, 0), (0, 0), (0, 2)]
    plays = [(halves, "W") for halves in chain]
    pic = picture(build("none", (5, 2), plays))
    lead = shape(pic, "5-2")
    turned = [s for s in pic.tiles if s.arm == "W" and not s.double and s.orientation == "vertical"]
    assert turned, "the west arm never turned"
    assert shape(pic, "2-0").y + shape(pic, "2-0").height <= lead.y  # the tip is above the line
    assert pic.view_box[2] <= 9 * TILE_LENGTH
    assert pic.view_box[2] / pic.view_box[3] <= 2.5


def test_a_long_line_without_spinners_turns_and_keeps_tiles_big_on_a_phone() -> None:
    """spinners=none: 14 tiles split over both arms turn corners instead of running across."""
    west = [(5, 1), (1, 1), (1, 3), (3, 4), (4, 6), (6, 6), (6, 0)]
    east = [(2, 2), (2, 6), (6, 5), (5, 5), (5, 3), (3, 0), (0, 4)]
    plays = [
        (halves, end)
        for pair in zip(west, east, strict=True)
        for halves, end in zip(pair, "WE", strict=True)
    ]
    layout = build("none", (5, 2), plays)
    pic = picture(layout)
    assert len(pic.tiles) == 15
    for arm in ("W", "E"):
        upright = [s for s in pic.tiles if s.arm == arm and not s.double and not s.horizontal]
        assert upright, f"the {arm} arm never turned"
    # At most 7 tile lengths across: a tile is about 45 px long on a 360 px phone, not 33.
    assert pic.view_box[2] <= 7 * TILE_LENGTH
    assert not [(a.tile, b.tile) for a, b in itertools.combinations(pic.tiles, 2) if overlap(a, b)]
    check_markers_and_view(layout, pic)


def test_lines_without_spinners_stay_narrow() -> None:
    widths = [picture(layout).view_box[2] for layout in simulated_layouts("none", 12, seed=3)]
    assert max(widths) <= 7 * TILE_LENGTH


def test_later_spinners_open_arms_up_and_down() -> None:
    layout = build(
        "all",
        (6, 6),
        [
            ((6, 3), "W"),
            ((6, 1), "E"),
            ((3, 3), "W"),
            ((3, 5), "W"),
            ((3, 2), "3-3:N"),
            ((3, 0), "3-3:S"),
        ],
    )
    pic = picture(layout)
    spinner = shape(pic, "3-3")
    assert spinner.spinner and spinner.orientation == "vertical"
    up, down = shape(pic, "3-2"), shape(pic, "3-0")
    assert up.arm == "3-3:N" and up.y + up.height <= spinner.y
    assert down.arm == "3-3:S" and down.y >= spinner.y + spinner.height
    assert spinner.x < up.x + up.width / 2 < spinner.x + spinner.width
    check_markers_and_view(layout, pic)


def test_closed_spinner_ends_get_no_marker_until_both_sides_are_covered() -> None:
    layout = build("first", (6, 6), [((6, 3), "W")])
    pic = picture(layout)
    assert [e.name for e in pic.ends] == ["W", "E"]
    assert "N and S open once both sides of the spinner, double six, are covered." in pic.lines
    layout.place(tile(6, 1), "E")
    pic = picture(layout)
    assert [(e.name, e.shows) for e in pic.ends] == [("W", 3), ("E", 1), ("N", 6), ("S", 6)]
    north = next(e for e in pic.ends if e.name == "N")
    assert north.y < shape(pic, "6-6").y
    assert "N arm: empty; open end shows 6." in pic.lines


def test_highlight_marks_only_the_named_ends() -> None:
    pic = picture(four_arms(), highlight={"W", "S"})
    assert {e.name for e in pic.ends if e.highlighted} == {"W", "S"}
    assert [e.name for e in pic.highlighted] == ["W", "S"]
    assert (
        "W arm: six-three, double three; open end shows 3 (the chosen tile fits here)." in pic.lines
    )


def test_description_reads_the_table() -> None:
    pic = picture(four_arms())
    assert pic.lines == [
        "Lead: double six, the spinner.",
        "W arm: six-three, double three; open end shows 3.",
        "E arm: six-one; open end shows 1.",
        "N arm: six-four, double four; open end shows 4.",
        "S arm: six-two; open end shows 2.",
        "Count: 17 (no score).",
    ]
    assert pic.title == "The table: 7 tiles, count 17"


def test_empty_table() -> None:
    pic = picture(Layout())
    assert pic.tiles == () and pic.ends == ()
    assert pic.lines == ["No tile is on the table yet."]


# -- the macros -------------------------------------------------------------------------------


ENV = Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True)
ENV.globals.update(dominoes.TEMPLATE_GLOBALS)
MACROS: Any = ENV.get_template("_dominoes.html").module


def parse(markup: str) -> ET.Element:
    return ET.fromstring(str(markup))


def pips_drawn(svg: ET.Element) -> int:
    """How many pips ``svg`` draws: the round subpaths of its pip paths (one ``M`` each)."""
    paths = svg.findall(f".//{SVG}path[@class='pip']")
    return sum((path.get("d") or "").count("M") for path in paths)


@pytest.mark.parametrize("t", ALL_TILES, ids=str)
def test_domino_draws_the_tiles_pips(t: Tile) -> None:
    svg = parse(MACROS.domino(t))
    assert pips_drawn(svg) == t.pips
    assert svg.get("role") == "img"
    assert svg.get("aria-label") == spoken(t)


@pytest.mark.parametrize("t", TILE_SETS["double-twelve"].tiles[:55], ids=str)
def test_a_double_twelve_tile_draws_its_pips_and_says_its_name(t: Tile) -> None:
    """Every tile with a half above six (the first 55 of the set, highest first), drawn with
    as many pips as it shows and named as players say it ("twelve-seven")."""
    svg = parse(MACROS.domino(t))
    assert pips_drawn(svg) == t.pips
    assert svg.get("aria-label") == spoken(t)


def pip_circles(data: str) -> list[tuple[float, float, float]]:
    """The pips of a pip path as (centre x, centre y, radius): each subpath starts at its
    circle's left edge and draws two half-circle arcs of that radius."""
    circles = []
    for left, y, radius in re.findall(r"M(-?[\d.]+) (-?[\d.]+)a([\d.]+) ", data):
        r = float(radius)
        circles.append((float(left) + r, float(y), r))
    return circles


@pytest.mark.parametrize("number", range(13))
@pytest.mark.parametrize("horizontal", [True, False], ids=["across", "upright"])
def test_every_number_up_to_twelve_has_its_pips_apart_inside_its_half(
    number: int, horizontal: bool
) -> None:
    """The pips of a half (both halves show ``number``) lie inside the half, as far apart as
    a double-six set's six are (a gap of nearly half a pip), so that a twelve's 12 can still
    be counted at a glance."""
    width, height = (100.0, 50.0) if horizontal else (50.0, 100.0)
    face = str(dominoes.tile_face(number, number, 0, 0, width, height))
    found = re.search(r'class="pip" d="([^"]+)"', face)
    circles = pip_circles(found.group(1)) if found else []
    assert len(circles) == 2 * number
    side = 50.0
    for cx, cy, r in circles:
        half_x = 0.0 if (not horizontal or cx < side) else side
        half_y = 0.0 if (horizontal or cy < side) else side
        assert half_x + r < cx < half_x + side - r and half_y + r < cy < half_y + side - r
    for (x1, y1, r1), (x2, y2, r2) in itertools.combinations(circles, 2):
        gap = ((x1 - x2) ** 2 + (y1 - y2) ** 2) ** 0.5 - r1 - r2
        assert gap >= 0.45 * 2 * max(r1, r2), (x1, y1, x2, y2)


def test_domino_sizes_orientation_and_decorative_use() -> None:
    upright = parse(MACROS.domino(tile(6, 4), size="lg", vertical=True))
    assert upright.get("viewBox") == "0 0 50 100"
    assert "domino--lg" in (upright.get("class") or "")
    assert upright.get("aria-label") == "six-four"
    hidden = parse(MACROS.domino(tile(5, 5), size="sm", label=False))
    assert hidden.get("aria-hidden") == "true" and hidden.get("role") is None
    assert hidden.get("viewBox") == "0 0 100 50"
    assert int(hidden.get("width") or 0) < int(upright.get("width") or 0)


def test_layout_picture_draws_every_tile_and_open_end() -> None:
    layout = four_arms()
    pic = picture(layout, highlight=layout.fits(tile(3, 2)))
    root = parse(MACROS.layout_picture(pic, id="t"))
    svg = root.find(f"{SVG}svg")
    assert svg is not None and svg.get("viewBox") == pic.view_box_text
    assert svg.findtext(f"{SVG}title") == pic.title
    assert pips_drawn(svg) == sum(t.pips for t in layout.on_table)
    markers = {str(g.get("data-end")): g for g in svg.iter(f"{SVG}g") if g.get("data-end")}
    assert sorted(markers) == sorted(end.name for end in layout.ends())
    for end in layout.ends():
        marker = markers[end.name]
        texts = [t.text for t in marker.iter(f"{SVG}text")]
        assert str(end.shows) in texts and end.name in texts
        fits = "end-marker--fits" in (marker.get("class") or "")
        assert fits == (end.name in ("W", "S"))
    hidden = [li.text for li in root.iter("li")]
    assert hidden == pic.lines


def test_layout_picture_lays_end_buttons_over_the_markers() -> None:
    pic = picture(four_arms(), highlight={"E"})
    page = ENV.from_string(
        '{% import "_dominoes.html" as d %}'
        '{% macro tap(end) %}<button value="{{ end.name }}">{{ end.text }}</button>{% endmacro %}'
        "{{ d.layout_picture(pic, end_button=tap) }}"
        "{% call(end) d.layout_picture(pic, id='second') %}<a>{{ end.name }}</a>{% endcall %}"
    ).render(pic=pic)
    root = parse(f"<body>{page}</body>")
    first, second = root.findall("div")
    buttons = first.findall(".//button")
    assert [b.text for b in buttons] == [e.text for e in pic.ends]
    # Each target carries its marker's place for static/js/picture.js, never a style
    # attribute (a strict Content-Security-Policy forbids them); the overlay starts hidden.
    overlay = first.find(".//div[@class='table-picture__targets']")
    assert overlay is not None and overlay.get("hidden") is not None
    targets = overlay.findall("div[@class='table-picture__target']")
    assert [(t.get("data-left"), t.get("data-top"), t.get("data-size")) for t in targets] == [
        (str(e.left), str(e.top), str(e.size)) for e in pic.ends
    ]
    assert "style=" not in page
    assert [a.text for a in second.findall(".//a")] == [e.name for e in pic.ends]
    plain = parse(MACROS.layout_picture(pic))
    assert plain.find(".//div[@class='table-picture__targets']") is None


def test_a_target_covers_its_markers_halo() -> None:
    pic = picture(four_arms(), highlight={"E"})
    _x, _y, width, _height = pic.view_box
    for end in pic.ends:
        assert end.size == pytest.approx((2 * end.halo_r + 3) / width * 100, abs=0.01)
        assert 0 < end.left < 100 and 0 < end.top < 100


def test_end_targets_lie_over_the_fitting_ends_only() -> None:
    layout = four_arms()
    chosen = tile(3, 2)
    pic = picture(layout, highlight=layout.fits(chosen))
    page = ENV.from_string(
        '{% import "_dominoes.html" as d %}'
        "{% call(e) d.layout_picture(pic) %}{{ d.end_target(e, chosen, 'choose-end') }}{% endcall %}"
    ).render(pic=pic, chosen=chosen)
    root = parse(page)
    targets = root.findall(".//div[@class='table-picture__target']")
    assert [t.get("data-left") for t in targets] == [str(e.left) for e in pic.highlighted]
    buttons = [t.find("button") for t in targets]
    assert [(b.get("data-end"), b.get("value")) for b in buttons if b is not None] == [
        ("W", "W"),
        ("S", "S"),
    ]
    for b in buttons:
        assert b is not None
        assert (b.get("type"), b.get("name"), b.get("form")) == ("submit", "end", "choose-end")
        assert b.get("data-tile") == "3-2" and b.get("class") == "end-tap"
        # For fingers only: out of the Tab order and the accessibility tree, where the end
        # buttons below the picture already offer each end once.
        assert (b.get("tabindex"), b.get("aria-hidden")) == ("-1", "true")
        assert (b.get("aria-label") or "").endswith(": play three-two there")


def test_end_buttons_offer_only_the_ends_the_tile_fits() -> None:
    layout = four_arms()
    chosen = tile(3, 2)
    pic = picture(layout, highlight=layout.fits(chosen))
    html = MACROS.end_buttons(pic, chosen, 12)
    assert isinstance(html, Markup)
    buttons = parse(html).findall("button")
    assert [(b.get("value"), b.get("data-end"), b.text) for b in buttons] == [
        ("W", "W", "W shows 3"),
        ("S", "S", "S shows 2"),
    ]
    for b in buttons:
        assert (b.get("type"), b.get("name"), b.get("class")) == ("submit", "end", "end-button")
        assert b.get("data-tile") == "3-2" and b.get("data-seq") == "12"
        assert (b.get("aria-label") or "").startswith(b.text or "-")
    # The first end takes the focus when the buttons appear: Enter plays there, Tab goes on.
    assert [b.get("autofocus") for b in buttons] == ["autofocus", None]
    nothing = picture(layout, highlight=layout.fits(tile(5, 5)))
    assert str(MACROS.end_buttons(nothing, tile(5, 5), 12)).strip() == ""
