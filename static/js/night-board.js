// The night's board follows its round's tables (templates/nights/board.html).
//
// The board's event stream (data-changes) says "<table> <version>" whenever a table's game
// changes (and every table's version when it opens): the page asks for that table's card
// alone (data-card + number) and swaps it in if it is newer than the one shown. A card whose
// finished games changed brings the standings after it (data-standings). Each card (and the
// standings) has one request on its way at most; a change heard meanwhile asks again once it
// lands, so the board always ends on the latest version. Without a stream (the server
// answers 204) the page asks data-versions every 3 seconds instead. The clock counts down to
// data-ends-at each second and says data-words-up at zero.
(function () {
  "use strict";

  const POLL_MS = 3000;

  function board() {
    return document.getElementById("night-board");
  }

  const heard = {}; // table number -> newest version said
  const asking = {}; // table number -> a request is on its way
  let standingsAsking = false;
  let standingsAgain = false;
  let stream = null;
  let pollTimer = null;

  function shownVersion(number) {
    const card = document.getElementById("board-table-" + number);
    return card ? Number(card.dataset.version) : -1;
  }

  function told(number, version) {
    heard[number] = Math.max(heard[number] || 0, version);
    if (heard[number] > shownVersion(number)) askCard(number);
  }

  function askCard(number) {
    const root = board();
    if (!root || asking[number]) return;
    asking[number] = true;
    fetch(root.dataset.card + number, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html) swapCard(number, html);
      })
      .catch(function () {})
      .finally(function () {
        asking[number] = false;
        if ((heard[number] || 0) > shownVersion(number)) setTimeout(askCard, 200, number);
      });
  }

  function swapCard(number, html) {
    const shown = document.getElementById("board-table-" + number);
    const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    if (!shown || !fresh || fresh.id !== shown.id) return;
    if (Number(fresh.dataset.version) <= Number(shown.dataset.version)) return;
    const ended = fresh.dataset.finished !== shown.dataset.finished;
    shown.replaceWith(document.importNode(fresh, true));
    if (ended) {
      askStandings();
      reopen();
    }
  }

  // A finished game may have a rematch (a new game at the table) soon: the stream follows
  // the games it was opened with, so it is opened again, and the server reads them anew.
  function reopen() {
    if (!stream) return;
    stream.close();
    stream = null;
    follow();
  }

  function askStandings() {
    const root = board();
    if (!root) return;
    if (standingsAsking) {
      standingsAgain = true;
      return;
    }
    standingsAsking = true;
    standingsAgain = false;
    fetch(root.dataset.standings, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        const shown = document.getElementById("board-standings");
        if (!html || !shown) return;
        const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
        if (fresh && fresh.id === shown.id) shown.replaceWith(document.importNode(fresh, true));
      })
      .catch(function () {})
      .finally(function () {
        standingsAsking = false;
        if (standingsAgain) askStandings();
      });
  }

  // "round <id>" then "<table> <version>" lines, from the stream or the versions URL.
  let round = null;
  function said(line) {
    const parts = line.trim().split(" ");
    if (parts.length !== 2) return;
    if (parts[0] === "round") {
      // A new round started since the page was drawn: the whole board changes.
      if (round !== null && round !== parts[1]) window.location.reload();
      round = parts[1];
      return;
    }
    told(Number(parts[0]), Number(parts[1]));
  }

  function follow() {
    const root = board();
    if (!root || stream || document.hidden) return;
    if (!window.EventSource) return poll();
    stream = new window.EventSource(root.dataset.changes);
    stream.addEventListener("open", function () {
      root.dataset.following = "stream";
    });
    stream.addEventListener("round", function (event) {
      said("round " + event.data);
    });
    stream.addEventListener("table", function (event) {
      said(event.data);
    });
    stream.addEventListener("error", function () {
      if (stream && stream.readyState === window.EventSource.CLOSED) {
        stream = null;
        poll();
      }
    });
  }

  function poll() {
    const root = board();
    if (!root || pollTimer) return;
    root.dataset.following = "polling";
    pollTimer = setInterval(function () {
      if (document.hidden) return;
      fetch(root.dataset.versions, { credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          return response.ok ? response.text() : "";
        })
        .then(function (text) {
          text.split("\n").forEach(said);
        })
        .catch(function () {});
    }, POLL_MS);
  }

  document.addEventListener("visibilitychange", function () {
    if (document.hidden && stream) {
      stream.close();
      stream = null;
    } else follow();
  });

  function clock() {
    const face = document.querySelector("[data-ends-at]");
    if (!face) return;
    const shown = face.querySelector("[data-clock]");
    const ends = Date.parse(face.dataset.endsAt);
    function tick() {
      const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
      face.dataset.left = String(left);
      shown.textContent =
        left > 0
          ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0")
          : face.dataset.wordsUp;
      if (left > 0) setTimeout(tick, 1000 - (Date.now() % 1000));
    }
    tick();
  }

  function begin() {
    clock();
    follow();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", begin);
  else begin();
})();
