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
    light(note);
    announce(note.dataset.spoken || note.dataset.lastScore);
  }

  // A note swapped in lit (the answer to this page's own entry) began its fade when it was
  // first styled, with the new table: nothing to restart. One not lit (a live update) starts
  // when lit. Only a note that stayed on the page, still lit by the entry before, is put out
  // for a frame and lit again on the next: restarting it at once would make the browser
  // style (and lay out) the new table twice, on every entry.
  let lastNote = null;

  function light(note) {
    const again = note === lastNote && note.classList.contains(SHOW);
    lastNote = note;
    if (!again) {
      note.classList.add(SHOW);
      return;
    }
    note.classList.remove(SHOW);
    requestAnimationFrame(function () {
      requestAnimationFrame(function () {
        if (note === lastNote) note.classList.add(SHOW);
      });
    });
  }

  // A hand's screen (.screen--fit) is made to fit the window from the page's top. Tapping a
  // settlement's trays of tiles scrolls the page down; once the hand is settled here the next
  // screen is no taller than the window, and the page, left where it was (or brought to the
  // card alone), would hide the menu and the top row of scores: back to the top. A live
  // update (another phone settled) leaves the reader where they are.
  function backToTheScreen(shown, own) {
    if (!own || window.scrollY <= 0 || !shown.querySelector(".screen--fit")) return false;
    window.scrollTo(0, 0);
    return true;
  }

  function bringIntoView(shown, own) {
    const note = shown.querySelector("[data-bring-into-view]");
    const news = note && document.getElementById(note.dataset.bringIntoView);
    if (!news) return;
    // On the next frame: after live.js has put the reader's scroll position back. Only what
    // is out of sight is brought in, the shortest way, and at once: a page never moves under
    // a finger that is already on what it needs.
    requestAnimationFrame(function () {
      if (news.id === "settlement" && backToTheScreen(shown, own)) return;
      const box = news.getBoundingClientRect();
      if (box.top >= 0 && box.bottom <= window.innerHeight) return;
      news.scrollIntoView({ block: "nearest" });
    });
  }

  function spoken(shown) {
    const note = shown.querySelector("[data-last-score]");
    return note ? note.dataset.spoken : "";
  }

  function arrived(shown, own) {
    const now = events(shown);
    const words = spoken(shown);
    const recalled = now === seen && words !== heard;
    if (seen !== null && (now > seen || recalled)) {
      flash(shown);
      bringIntoView(shown, own);
    }
    seen = now;
    heard = words;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    const shown = table();
    // An entry made on this page comes with its request (live.js swaps without one).
    const config = event.detail && event.detail.requestConfig;
    if (shown && event.target === shown) arrived(shown, Boolean(config && config.elt));
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
    lastNote = first.querySelector("[data-last-score]");
  }
})();
