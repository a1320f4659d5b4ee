"""Draw the app's home-screen icons into static/icons/: ``.venv/bin/python -m tools.icons``.

The icon is a double-five domino standing on the table's green. ``icon.svg`` is the drawing;
the PNGs are that drawing rendered once by Chromium (``/usr/bin/chromium``, or ``$CHROMIUM``)
at the sizes phones ask for:

- ``icon-192.png`` and ``icon-512.png``: rounded corners, for launchers that show the icon as is;
- ``icon-maskable-512.png``: full bleed, the domino inside the central circle (40% of the side
  as its radius) that a launcher's mask never cuts;
- ``apple-touch-icon.png`` (180x180): full bleed and opaque, since iOS rounds the corners itself
  and would fill transparent ones with black.

Run it again after changing the drawing, and commit the files it writes.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.support.chromium import CHROMIUM, LAUNCH_ARGS

ROOT = Path(__file__).resolve().parent.parent

OUT = ROOT / "static" / "icons"
SIDE = 512
FELT = "#0f6e55"  # --accent in static/css/app.css
FACE = "#fbf6e9"  # --domino-face in static/css/dominoes.css
EDGE = "#5b5447"  # --domino-edge
PIP = "#1c1c1c"  # --domino-pip
FIVE = [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]
"""A five's pips, as steps from the centre of its half of the tile."""


def domino_svg(scale: float, rounded: bool) -> str:
    """The icon drawn on a 512-unit square: the domino at ``scale`` of its full size, on a
    green square with rounded corners (``rounded``) or filling every pixel."""
    width, height = 200 * scale, 400 * scale
    left, top = (SIDE - width) / 2, (SIDE - height) / 2
    half = width
    step, radius = 55 * scale, 22 * scale
    pips = []
    for centre_y in (top + half / 2, top + half * 1.5):
        for dx, dy in FIVE:
            cx, cy = SIDE / 2 + dx * step, centre_y + dy * step
            pips.append(f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{PIP}"/>')
    corner = 'rx="96"' if rounded else ""
    inset = 24 * scale
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIDE} {SIDE}">'
        "<title>All Fives</title>"
        f'<rect width="{SIDE}" height="{SIDE}" {corner} fill="{FELT}"/>'
        f'<rect x="{left:g}" y="{top:g}" width="{width:g}" height="{height:g}" '
        f'rx="{32 * scale:g}" fill="{FACE}" stroke="{EDGE}" stroke-width="{6 * scale:g}"/>'
        f'<line x1="{left + inset:g}" y1="{SIDE / 2:g}" x2="{left + width - inset:g}" '
        f'y2="{SIDE / 2:g}" stroke="{EDGE}" stroke-width="{8 * scale:g}" stroke-linecap="round"/>'
        + "".join(pips)
        + "</svg>\n"
    )


ICONS = {
    "icon-192.png": (192, domino_svg(1.0, rounded=True)),
    "icon-512.png": (512, domino_svg(1.0, rounded=True)),
    "icon-maskable-512.png": (512, domino_svg(0.8, rounded=False)),
    "apple-touch-icon.png": (180, domino_svg(0.85, rounded=False)),
}


def main() -> None:
    """Write icon.svg and render every PNG."""
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "icon.svg").write_text(domino_svg(1.0, rounded=True), encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        for name, (size, svg) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<!doctype html><body>{sized}</body>")
            page.add_style_tag(content="body { margin: 0; } svg { display: block; }")
            page.locator("svg").screenshot(path=str(OUT / name), omit_background=True)
            page.close()
            print(f"wrote {OUT / name} ({size}x{size})")
        browser.close()


if __name__ == "__main__":
    main()
