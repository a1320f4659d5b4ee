// What just happened, after each entry: what it scored flashes by the scoreboard and is read
// out to screen readers, and the news it made (a settled hand, the winner) comes into view.
//
// #table is replaced whole by every entry and by the live view (live.js). Each table carries
// what its last entry scored (.last-score: data-last-score, data-spoken) and, when that entry
// settled a hand or ended the game, the id of what to bring into view (data-bring-into-view).
// A table counts as news when it has more events than the one it replaces (an undo, a
// refusal or a stale page shows no flash), or as many and other words for its last entry: a
// call changed on the last play (house rule muggins) adds no event, but changes what it
// scored. The words go to #score-news, a live region outside #table that stays on the page,
// since a live region swapped in with its content is often not read.
(function () {
  "use strict";

  const SHOW = "last-score--show";
  const ANNOUNCE_DELAY_MS = 150;
  let seen = null;
  let heard = null;
  let announcing = null;

  function table() {
    return document.getElementById("table");
  }

  function events(shown) {
    return Number(shown.dataset.seq);
  }

  function announce(words) {
    const news = document.getElementById("score-news");
    if (!news) return;
    clearTimeout(announcing);
    // Emptied first, so that the same words twice ("no score") are read twice.
    news.textContent = "";
    if (!words) return;
    announcing = setTimeout(function () {
      news.textContent = words;
    }, ANNOUNCE_DELAY_MS);
  }

  function flash(shown) {
    const note = shown.querySelector("[data-last-score]");
    if (!note || !note.dataset.lastScore) {
      announce("");
      return;
    }
    note.classList.remove(SHOW);
    void note.offsetWidth; // restart the fade when the server already showed it
    note.classList.add(SHOW);
    announce(note.dataset.spoken || note.dataset.lastScore);
  }

  function bringIntoView(shown) {
    const note = shown.querySelector("[data-bring-into-view]");
    const news = note && document.getElementById(note.dataset.bringIntoView);
    if (!news) return;
    // On the next frame: after live.js has put the reader's scroll position back. Only what
    // is out of sight is brought in, the shortest way, and at once: a page never moves under
    // a finger that is already on what it needs.
    requestAnimationFrame(function () {
      const box = news.getBoundingClientRect();
      if (box.top >= 0 && box.bottom <= window.innerHeight) return;
      news.scrollIntoView({ block: "nearest" });
    });
  }

  function spoken(shown) {
    const note = shown.querySelector("[data-last-score]");
    return note ? note.dataset.spoken : "";
  }

  function arrived(shown) {
    const now = events(shown);
    const words = spoken(shown);
    const recalled = now === seen && words !== heard;
    if (seen !== null && (now > seen || recalled)) {
      flash(shown);
      bringIntoView(shown);
    }
    seen = now;
    heard = words;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    const shown = table();
    if (shown && event.target === shown) arrived(shown);
  });

  // Faded out (the flash, or on a hand's screen the count line or the settled hand lit in its
  // place): back to hidden, ready for the next entry.
  document.addEventListener("animationend", function (event) {
    const done = event.target;
    if (!(done instanceof Element)) return;
    const lit = done.classList.contains("count-line") || done.classList.contains("settlement");
    const note = lit ? document.querySelector("#table ." + SHOW) : done;
    if (note && note.classList.contains(SHOW)) note.classList.remove(SHOW);
  });

  const first = table();
  if (first) {
    seen = events(first);
    heard = spoken(first);
  }
})();
