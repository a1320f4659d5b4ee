// The table from the keyboard alone: after an entry made with the keyboard, the focus lands
// where the next entry starts, and a tile is picked by typing its two numbers.
//
// - Focus: when this page's own entry (an htmx request from #table) was made with the
//   keyboard, the new table's next control takes the focus, without scrolling the page: the
//   end button the server marked autofocus, else the settlement's first field, the lead
//   button, the first tile that fits, or Rematch. An entry made by a finger or a pointer
//   leaves the focus alone (on a phone a focused field would open the on-screen keyboard).
// - Typing, outside a text field (the keys are on the buttons' aria-keyshortcuts):
//   two digits within a second pick the tile with those two numbers ("6" then "4": 6-4, in
//   either order), as a tap on it would; a tile that fits two ends then offers them, the
//   first focused: Enter plays it there, or the end's letter (W, E, N, S) where it is named.
//   D draws, P passes.
(function () {
  "use strict";

  const TYPED_WITHIN_MS = 1000;
  let byKeyboard = false;
  let entryByKeyboard = false;
  let firstDigit = null;
  let firstAt = 0;

  document.addEventListener("keydown", function () {
    byKeyboard = true;
  }, true);
  document.addEventListener("pointerdown", function () {
    byKeyboard = false;
  }, true);

  document.addEventListener("htmx:beforeRequest", function (event) {
    const table = document.getElementById("table");
    if (table && table.contains(event.target)) entryByKeyboard = byKeyboard;
  });

  function nextControl(table) {
    return (
      table.querySelector("[autofocus]") ||
      table.querySelector(".settle-form input[data-held-field]") ||
      table.querySelector(".lead-form button.primary") ||
      table.querySelector(".picker button.tile-button.fits:not([disabled])") ||
      table.querySelector(".picker button.tile-button:not([disabled])") ||
      table.querySelector("[data-action=rematch]")
    );
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    const table = document.getElementById("table");
    if (!table || event.target !== table || !entryByKeyboard) return;
    entryByKeyboard = false;
    const next = nextControl(table);
    if (next) next.focus({ preventScroll: true });
  });

  function typing(target) {
    return (
      target instanceof HTMLElement &&
      (target.isContentEditable || target.closest("input, textarea, select") !== null)
    );
  }

  function press(button, event) {
    event.preventDefault();
    button.focus({ preventScroll: true });
    button.click(); // an entry by keyboard: this keydown set byKeyboard
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
    const table = document.getElementById("table");
    if (!table) return;
    const letter = event.key.toUpperCase();
    if (/^[NSEW]$/.test(letter)) {
      const end = Array.prototype.find.call(
        table.querySelectorAll(".choose-end .end-button"),
        function (button) {
          return button.dataset.end.split(":").pop() === letter;
        }
      );
      if (end) press(end, event);
      return;
    }
    const action = { D: "draw", P: "pass" }[letter];
    if (action) {
      const button = table.querySelector('[data-action="' + action + '"]');
      if (button && !button.disabled) press(button, event);
      return;
    }
    if (!/^[0-9]$/.test(event.key)) return;
    const picker = table.querySelector(".picker");
    if (!picker) return;
    const now = Date.now();
    if (firstDigit === null || now - firstAt > TYPED_WITHIN_MS) {
      firstDigit = event.key;
      firstAt = now;
      return;
    }
    const tiles = [firstDigit + "-" + event.key, event.key + "-" + firstDigit];
    firstDigit = null;
    const button = tiles
      .map(function (name) {
        return picker.querySelector('button[data-tile="' + name + '"]:not([disabled])');
      })
      .find(Boolean);
    if (button) press(button, event);
  });
})();
