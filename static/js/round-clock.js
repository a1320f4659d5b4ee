/* A club night's round clock on a table's play screen and watch page (templates/_table.html,
   docs/nights.md): counts the time left down each second from data-round-ends (ISO, UTC)
   and, once it is up, says data-time-up instead and shows its Call time button. The element is looked up at every tick,
   since htmx swaps the table it is in. Without JavaScript the page shows the time left as
   it was rendered. */

(() => {
  "use strict";

  function tick() {
    for (const clock of document.querySelectorAll("[data-round-ends]")) {
      const ends = Date.parse(clock.dataset.roundEnds);
      if (Number.isNaN(ends)) continue;
      const left = Math.max(0, Math.ceil((ends - Date.now()) / 1000));
      const shown = clock.querySelector("[data-clock-left]");
      if (left > 0 && shown) {
        const seconds = String(left % 60).padStart(2, "0");
        shown.textContent = `${Math.floor(left / 60)}:${seconds}`;
      } else if (left === 0 && !clock.classList.contains("round-clock--up")) {
        const text = clock.querySelector("[data-clock-text]");
        if (text) text.textContent = clock.dataset.timeUp;
        clock.classList.add("round-clock--up");
        const call = clock.querySelector("[data-call-time]");
        if (call) call.hidden = false;
      }
    }
  }

  setInterval(tick, 1000);
  tick();
})();
