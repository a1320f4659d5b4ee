// The new-game form's target follows the number of names typed while it is left at its
// default: All Fives is played to 250 by two players and to 200 by three or more. The target
// field carries each number of players' target (data-target-by-players, from the preset the
// form was filled with); the hidden "filled" field says which preset and number of players
// the form's defaults are for, and is kept at the names typed, so the server reads a target
// changed by hand as chosen, and one left alone as the default. Without JavaScript the server
// plays a target left at its default to the right one (scorekeeper/web/table/new_game.py).
(function () {
  "use strict";

  const MOST = 8;

  function seatCount(form) {
    const names = Array.from(form.querySelectorAll('input[name^="player"]')).filter(
      (input) => /^player\d+$/.test(input.name) && input.value.trim() !== "",
    );
    return Math.max(2, Math.min(MOST, names.length));
  }

  function follow(form) {
    const target = form.querySelector("input[data-target-by-players]");
    const filled = form.querySelector('input[name="filled"]');
    if (!target || !filled || !target.dataset.targetByPlayers) return;
    let byPlayers;
    try {
      byPlayers = JSON.parse(target.dataset.targetByPlayers);
    } catch (error) {
      return;
    }
    const parts = filled.value.split(":");
    const now = seatCount(form);
    if (parts.length !== 2 || String(now) === parts[1]) return;
    const before = byPlayers[parts[1]];
    const after = byPlayers[String(now)];
    if (before === undefined || after === undefined) return;
    if (target.value.trim() === String(before)) target.value = String(after);
    filled.value = `${parts[0]}:${now}`;
  }

  document.addEventListener("input", (event) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !/^player\d+$/.test(field.name)) return;
    const form = field.closest("form#new-game");
    if (form) follow(form);
  });

  // The roster's buttons (roster.js) fill the seats without an input event of their own.
  document.addEventListener("click", (event) => {
    const button = event.target instanceof Element && event.target.closest("[data-roster-name], [data-seat-up]");
    const form = button && button.closest("form#new-game");
    if (form) setTimeout(() => follow(form), 0);
  });

  // A form swapped in (a preset loaded, the units switched) keeps its names: follow them.
  document.addEventListener("htmx:load", (event) => {
    const form = event.target instanceof Element && event.target.closest("form#new-game");
    if (form) follow(form);
  });
})();
