"""Checks run on a page as it is, shared by the accessibility, ergonomics and text-size tests:
axe-core's findings of moderate impact or worse (the score flash's in each of its frames too),
and what is wrong for a thumb (sideways scroll, small targets, small text)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core as ``tests/browser/axe/package-lock.json`` pins it (a current release: older ones
lack rules such as label-content-name-mismatch); ``make test`` installs it with npm."""
BLOCKING = ("moderate", "serious", "critical")
"""The impacts that fail a page: every one but "minor" (a moderate finding is a missing <h1>,
two landmarks of one name, ...)."""


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """Run axe-core on the page as it is."""
    if not AXE.exists():
        raise AssertionError(f"axe-core is not installed ({AXE}): run `make test`")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        # Evaluated by the test driver, not added as an inline <script>, which the page's
        # Content-Security-Policy rightly blocks.
        page.evaluate(AXE.read_text(encoding="utf-8"))
    # Only the violations are read: axe then describes at most one node of the passes, the
    # rules that do not apply and the ones it cannot tell, instead of every node of the page
    # (a unique selector each), which took more than half of its time on a long page.
    result: dict[str, Any] = page.evaluate(
        "async () => await axe.run(document, {resultTypes: ['violations']})"
    )
    return [v for v in result["violations"] if v["impact"] in BLOCKING]


def explain(violations: list[dict[str, Any]]) -> str:
    """Rule id, help and the failing nodes' targets, one violation per paragraph."""
    parts = []
    for v in violations:
        nodes = "\n".join(
            f"    {json.dumps(n['target'])}: {n.get('failureSummary', '')}" for n in v["nodes"]
        )
        parts.append(f"{v['id']} ({v['impact']}): {v['help']}\n{nodes}")
    return "\n".join(parts)


MIN_TARGET = 44
"""The smallest tap target, CSS px a side."""
MIN_TEXT = 16
"""The smallest text, CSS px."""

# The interactive elements a finger must hit, with their size (a radio button or checkbox
# counts with its label, which toggles it too).
TARGETS_JS = """() => {
  const shown = e => { const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden'; };
  const out = [];
  for (const e of document.querySelectorAll('button, a[href], input, select, textarea, summary')) {
    if (e.type === 'hidden' || !shown(e) || e.closest('.visually-hidden')) continue;
    let boxes = [e.getBoundingClientRect()];
    if (e.labels) boxes = boxes.concat([...e.labels].filter(shown).map(l => l.getBoundingClientRect()));
    const best = boxes.reduce((a, b) => Math.min(b.width, b.height) > Math.min(a.width, a.height) ? b : a);
    const name = (e.getAttribute('aria-label') || e.textContent || e.name || e.tagName).trim();
    out.push({what: e.tagName.toLowerCase() + ' "' + name.slice(0, 40) + '"',
              width: best.width, height: best.height});
  }
  return out;
}"""

# Every element with its own visible text, and its computed font size.
TEXT_JS = """() => {
  const out = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e.closest('svg, .visually-hidden, .table-picture__text')) continue;
    const own = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    out.push({what: e.tagName.toLowerCase() + '.' + e.className + ' "' + e.textContent.trim().slice(0, 30) + '"',
              size: parseFloat(getComputedStyle(e).fontSize)});
  }
  return out;
}"""


def problems_on(page: Page) -> list[str]:
    """What is wrong for a thumb on the page as it is: sideways scroll, small targets, small text."""
    found = []
    scroll, client = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    if scroll > client:
        found.append(f"scrolls sideways: {scroll} px of content in {client} px")
    for t in page.evaluate(TARGETS_JS):
        if t["width"] < MIN_TARGET - 0.5 or t["height"] < MIN_TARGET - 0.5:
            found.append(f"small target {t['what']}: {t['width']:.0f}x{t['height']:.0f}")
    for t in page.evaluate(TEXT_JS):
        if t["size"] < MIN_TEXT - 0.01:
            found.append(f"small text {t['what']}: {t['size']} px")
    return found


# The flash of what an entry scored, stopped at a moment of its run: every animation of the
# page paused and set to ``fraction`` of its length (the Web Animations API), so that what axe
# sees is that frame, however fast or slow the machine is. It is lit again first (as
# static/js/what-happened.js lights it after an entry), so it has not already faded away.
FLASH_AT_JS = """fraction => {
  const note = document.querySelector('#table [data-last-score]');
  if (fraction === 0) {
    note.classList.remove('last-score--show');
    void note.offsetWidth;
    note.classList.add('last-score--show');
  }
  const running = document.getAnimations();
  for (const animation of running) {
    animation.pause();
    animation.currentTime = fraction * animation.effect.getComputedTiming().duration;
  }
  return running.length;
}"""

FLASH_FRAMES = 40
"""Frames of the flash looked at: one every 90 ms of its 3.6 s."""


def contrast_in_every_frame(page: Page, animated: bool = True) -> list[str]:
    """axe's color-contrast findings in each frame of the flash, said with the frame's moment
    (the text and its colours, as axe tells them). Not ``animated`` (a finished game's flash,
    which stays as it is): nothing may run, and its one frame is looked at."""
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        axe_violations(page)  # loads axe-core into the page
    found = []
    for frame in range(FLASH_FRAMES + 1 if animated else 1):
        fraction = frame / FLASH_FRAMES
        running = page.evaluate(FLASH_AT_JS, fraction)
        assert bool(running) == animated, f"{running} animations run at {fraction:.0%}"
        result = page.evaluate(
            "async () => await axe.run(document,"
            " {resultTypes: ['violations'], runOnly: ['color-contrast']})"
        )
        # axe cannot tell the contrast of words over the scores (it reports it as one it cannot
        # tell): the flash lying there is wholly opaque whenever it shows, or it fades them.
        faded = page.evaluate(
            "() => [...document.querySelectorAll('#table [data-last-score]')].filter(e =>"
            " e.checkVisibility({visibilityProperty: true}) && getComputedStyle(e).opacity !== '1')"
            ".map(e => getComputedStyle(e).opacity)"
        )
        found += [f"at {fraction:.0%}: the flash is faded to opacity {o}" for o in faded]
        for v in result["violations"]:
            for n in v["nodes"]:
                summary = n.get("failureSummary", "").splitlines()[-1].strip()
                found.append(f"at {fraction:.0%}: {json.dumps(n['target'])}: {summary}")
    page.evaluate("() => document.getAnimations().forEach(a => a.finish())")
    return found
