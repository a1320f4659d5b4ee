// The club's roster on the new-game form: tap names to seat them in order, tap again to
// take a name off its seat, and move a seat up. Without JavaScript the seats are plain
// fields that offer the roster's names as suggestions (a <datalist>), so these buttons
// stay hidden. A name goes to the first empty seat in view: seats 5 to 8 only once a larger
// set is chosen.
(function () {
  "use strict";

  function seats(form) {
    return Array.from(form.querySelectorAll("[data-roster-seat] input"));
  }

  function shown(input) {
    return input.getClientRects().length > 0;
  }

  function sameName(a, b) {
    return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
  }

  // Each name's button says whether the name is seated.
  function refresh(form) {
    const names = seats(form).map(function (input) { return input.value; });
    form.querySelectorAll("button[data-roster-name]").forEach(function (button) {
      const seated = names.some(function (name) { return sameName(name, button.dataset.rosterName); });
      button.setAttribute("aria-pressed", seated ? "true" : "false");
    });
  }

  function setUp(root) {
    root.querySelectorAll("[data-roster], button[data-seat-up]").forEach(function (element) {
      element.hidden = false;
    });
    root.querySelectorAll("form").forEach(function (form) {
      if (form.querySelector("[data-roster]")) refresh(form);
    });
  }

  document.addEventListener("click", function (event) {
    const form = event.target.closest("form");
    if (!form) return;
    const name = event.target.closest("button[data-roster-name]");
    if (name) {
      const inputs = seats(form);
      const seated = inputs.find(function (input) { return sameName(input.value, name.dataset.rosterName); });
      if (seated) {
        seated.value = "";
      } else {
        const empty = inputs.find(function (input) { return input.value.trim() === "" && shown(input); });
        if (empty) empty.value = name.dataset.rosterName;
      }
      refresh(form);
      return;
    }
    const up = event.target.closest("button[data-seat-up]");
    if (up) {
      const inputs = seats(form);
      const seat = Number(up.dataset.seatUp) - 1;
      if (seat < 1 || seat >= inputs.length) return;
      const above = inputs[seat - 1].value;
      inputs[seat - 1].value = inputs[seat].value;
      inputs[seat].value = above;
      refresh(form);
    }
  });

  document.addEventListener("input", function (event) {
    const form = event.target.closest("form");
    if (form && form.querySelector("[data-roster]")) refresh(form);
  });

  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  document.addEventListener("htmx:load", function (event) { setUp(event.target); });
})();
