// The table from the keyboard alone: after an entry made with the keyboard, the focus lands
// where the next entry starts, and a tile is picked by typing its two numbers.
//
// - Focus: when this page's own entry (an htmx request from #table) was made with the
//   keyboard, the new table's next control takes the focus, without scrolling the page: the
//   end button the server marked autofocus, else the settlement's first field, the lead
//   button, the first guess of a hidden count (house rule practice), the first tile that
//   fits, or Rematch. An entry made by a finger or a pointer
//   leaves the focus alone (on a phone a focused field would open the on-screen keyboard).
// - Typing, outside a text field (the keys are on the buttons' aria-keyshortcuts):
//   two digits within a second pick the tile with those two numbers ("6" then "4": 6-4, in
//   either order), as a tap on it would; a tile that fits two ends then offers them, the
//   first focused: Enter plays it there, or the end's letter (W, E, N, S) where it is named.
//   D draws, P passes.
//   A larger set's tray (templates/_tray.html) asks for an end or a number first: the end's
//   letter chooses the end, and a number typed (one or two digits: "1" waits a second for a
//   "0", "1" or "2") then plays the tile with that number on it; before the lead the first
//   number typed chooses the number, the second plays the tile.
(function () {
  "use strict";

  const TYPED_WITHIN_MS = 1000;
  let byKeyboard = false;
  let entryByKeyboard = false;
  let firstDigit = null;
  let firstAt = 0;
  let typedNumber = null; // a larger set: a digit that may begin a two-digit number
  let numberTimer = null;
  let queued = []; // digits typed while the table's answer to the first one is on its way

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
      table.querySelector(".guess-choices button") ||
      table.querySelector(".picker button.tile-button.fits:not([disabled])") ||
      table.querySelector(".picker button.tile-button:not([disabled])") ||
      table.querySelector(".pick-choice button") ||
      table.querySelector("[data-action=rematch]")
    );
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    const table = document.getElementById("table");
    if (!table || event.target !== table) return;
    const digits = queued;
    queued = [];
    const picker = table.querySelector(".picker--numbers");
    if (picker && digits.length) {
      digits.forEach(function (digit) {
        typeNumber(picker, digit, null);
      });
      return;
    }
    if (!entryByKeyboard) return;
    entryByKeyboard = false;
    const next = nextControl(table);
    if (next) next.focus({ preventScroll: true });
  });

  // The control tapped for an entry has the focus. Were it swapped out with the old table,
  // the browser would let go of it halfway through the swap, and to do that style and lay out
  // the whole half-swapped page at once (and then the new table again for its frame). Let go
  // of it just before, while the page is as last laid out: that costs next to nothing. A
  // field being typed in keeps it (htmx and live.js put it back), and so does a control in a
  // part the answer keeps (parts.js), which stays on the page. After an entry made with the
  // keyboard the next control takes the focus when the table settles (above).
  document.addEventListener("htmx:beforeSwap", function (event) {
    const detail = event.detail;
    const shown = document.getElementById("table");
    const active = document.activeElement;
    if (!detail.shouldSwap || !shown || detail.target !== shown) return;
    if (!(active instanceof HTMLElement) || !shown.contains(active) || typing(active)) return;
    const part = active.closest("[data-part]");
    const text = detail.serverResponse;
    const kept =
      part &&
      typeof text === "string" &&
      text.indexOf('id="' + part.id + '" data-part="' + part.dataset.part + '" hx-preserve') >= 0;
    if (!kept) active.blur();
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
      let ends = table.querySelectorAll(".choose-end .end-button");
      if (!ends.length) ends = table.querySelectorAll(".pick-ends button[data-end]");
      const end = Array.prototype.find.call(ends, function (button) {
        return button.dataset.end.split(":").pop() === letter;
      });
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
    if (picker.classList.contains("picker--numbers")) {
      if (table.querySelector(".htmx-request")) {
        queued.push(Number(event.key));
        event.preventDefault();
      } else {
        typeNumber(picker, Number(event.key), event);
      }
      return;
    }
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

  // A larger set: a number typed, of one or two digits, for the tray's number or its tile.
  function typeNumber(picker, digit, event) {
    if (document.querySelector("#table .htmx-request")) {
      queued.push(digit);
      return;
    }
    const top = Number(picker.dataset.top);
    clearTimeout(numberTimer);
    if (typedNumber !== null && typedNumber * 10 + digit <= top) {
      const number = typedNumber * 10 + digit;
      typedNumber = null;
      chooseNumber(picker, number, event);
      return;
    }
    if (typedNumber !== null) {
      // "1" then "5" with no 15 in the set: 1, then 5 once the table has answered the 1.
      chooseNumber(picker, typedNumber, null);
      typedNumber = null;
      if (event) event.preventDefault();
      queued.push(digit);
      return;
    }
    if (digit > 0 && digit * 10 <= top) {
      typedNumber = digit;
      event.preventDefault();
      numberTimer = setTimeout(function () {
        const number = typedNumber;
        typedNumber = null;
        if (number !== null) chooseNumber(picker, number, null);
      }, TYPED_WITHIN_MS);
      return;
    }
    chooseNumber(picker, digit, event);
  }

  function chooseNumber(picker, number, event) {
    if (!picker.isConnected) return;
    const chosen = picker.querySelector(".pick-choice [aria-pressed=true]");
    const tiles = picker.querySelectorAll(".pick-tile button[data-tile]");
    let button = null;
    if (tiles.length) {
      // The tile with the number typed on it: beside the chosen number, or a double.
      const other = chosen ? Number(chosen.dataset.shows) : number;
      const name = Math.max(number, other) + "-" + Math.min(number, other);
      button = picker.querySelector('.pick-tile button[data-tile="' + name + '"]:not([disabled])');
    } else {
      button = picker.querySelector('.pick-numbers button[data-number="' + number + '"]');
    }
    if (!button) return;
    if (event) {
      press(button, event);
    } else {
      byKeyboard = true;
      button.focus({ preventScroll: true });
      button.click();
    }
  }
})();
