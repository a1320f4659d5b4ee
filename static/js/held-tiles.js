/* The settlement tray (templates/_held.html): tapping the tiles a player still holds fills in
   their field, so nobody types "6-1 0-0" (or a larger set's "12-7 9-0") on a number keypad.

   Each player has a field [data-held-field=<seat>] and a tray [data-held-tray=<seat>] of
   checkboxes, one per tile not on the table. Tapping a tile writes every tile tapped into the
   field; typing tiles into the field taps them on the tray, and typing a pip total untaps
   them. A tile tapped for one player is greyed out on the others' trays (a tile is in one
   hand only). Without JavaScript the boxes are sent as they are and the server reads them.

   The words are the page's, in its language: the count of tiles tapped is this script's tag's
   data-words-tapped (templates/base.html), whose {tapped}, {held} and {pips} it fills in; the
   hint with nothing tapped is the count's own first text (or its data-first). */

(() => {
  "use strict";

  const PIPS = /^\d{1,4}$/;
  const TILE = /^([0-6])\s*[-|:]?\s*([0-6])$/;
  const DASHED = /^(\d{1,2})\s*[-|:]\s*(\d{1,2})$/; // a larger set's "12-7"
  const script = document.currentScript;
  const TAPPED = (script && script.dataset.wordsTapped) || "";

  function fieldOf(seat) {
    return document.querySelector(`[data-held-field="${CSS.escape(seat)}"]`);
  }

  function trays() {
    return Array.from(document.querySelectorAll("[data-held-tray]"));
  }

  function boxes(tray) {
    return Array.from(tray.querySelectorAll('input[type="checkbox"]'));
  }

  /* The tiles a field names, written high half first, or null for a pip total, a blank
     field or anything that is not tiles. */
  function named(text) {
    const trimmed = text.trim();
    if (!trimmed || PIPS.test(trimmed)) return null;
    const tiles = [];
    for (const part of trimmed.split(/[\s,;]+/)) {
      const match = TILE.exec(part) || DASHED.exec(part);
      if (!match) return null;
      const a = Number(match[1]);
      const b = Number(match[2]);
      tiles.push(`${Math.max(a, b)}-${Math.min(a, b)}`);
    }
    return tiles;
  }

  function count(tray) {
    const note = tray.querySelector("[data-held-count]");
    if (!note) return;
    if (!("first" in note.dataset)) note.dataset.first = note.textContent;
    const tapped = boxes(tray).filter((box) => box.checked);
    if (!tapped.length) {
      note.textContent = note.dataset.first;
      return;
    }
    const pips = tapped.reduce((sum, box) => sum + Number(box.dataset.pips || 0), 0);
    const values = { tapped: tapped.length, held: tray.dataset.heldTiles, pips };
    note.textContent = TAPPED.replace(/\{(\w+)\}/g, (whole, key) =>
      key in values ? String(values[key]) : whole,
    );
  }

  /* A tile tapped on one tray is greyed out on the others. */
  function exclusive() {
    const all = trays();
    const taken = new Map();
    for (const tray of all) {
      for (const box of boxes(tray)) {
        if (box.checked) taken.set(box.value, tray);
      }
    }
    for (const tray of all) {
      for (const box of boxes(tray)) {
        const owner = taken.get(box.value);
        box.disabled = owner !== undefined && owner !== tray;
      }
      count(tray);
    }
  }

  function fromTray(tray) {
    const field = fieldOf(tray.dataset.heldTray);
    if (!field) return;
    const tapped = boxes(tray).filter((box) => box.checked).map((box) => box.value);
    if (tapped.length) {
      field.value = tapped.join(" ");
    } else if (named(field.value)) {
      field.value = "";
    }
  }

  function fromField(field, untapBlank) {
    const tray = document.querySelector(
      `[data-held-tray="${CSS.escape(field.dataset.heldField)}"]`,
    );
    if (!tray) return;
    const tiles = named(field.value);
    if (!tiles && !untapBlank) return;
    for (const box of boxes(tray)) {
      box.checked = tiles !== null && tiles.includes(box.value);
    }
  }

  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || box.type !== "checkbox") return;
    const tray = box.closest("[data-held-tray]");
    if (!tray) return;
    fromTray(tray);
    exclusive();
  });

  document.addEventListener("input", (event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !field.matches("[data-held-field]")) return;
    fromField(field, true);
    exclusive();
  });

  /* A table swapped in (an entry's answer, or the live view, which puts typed text back after
     the swap) taps the tiles its fields name when nothing is tapped yet. */
  function settle() {
    for (const field of document.querySelectorAll("[data-held-field]")) {
      const tray = document.querySelector(
        `[data-held-tray="${CSS.escape(field.dataset.heldField)}"]`,
      );
      if (tray && !boxes(tray).some((box) => box.checked)) fromField(field, false);
    }
    exclusive();
  }

  document.addEventListener("htmx:load", () => setTimeout(settle, 0));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", settle);
  } else {
    settle();
  }
})();
