// Live pages follow a game that another phone changes.
//
// The poller (#live, see templates/_live.html) follows the game's event stream: behind a watch
// link it brings each new table itself; behind the edit link it says the game changed, and the
// poller asks its hx-get URL. Where there is no stream it asks every 1.5 seconds, sending
// the version the page shows as If-None-Match: the server answers 304 while nothing changed.
// A newer table (or board) is swapped in keeping what the reader was doing: the scroll
// position, a picked tile (sent as ?selected= so the server keeps it picked; a larger set's
// end or number tapped first as ?end=&shows= or ?number=), text typed
// into a form, boxes ticked or unticked (the held tiles of a settlement), which folds are
// open, and the focus. A short "Updated" cue says it happened
// (its words are the page's, in its language: the script only says them again).
// A game that is no longer there (deleted: the poll answers 404) is not asked about again.
// A finished game whose rematch starts moves on to the rematch.
(function () {
  "use strict";

  const CUE_MS = 2500;
  let cueTimer = null;

  function poller() {
    return document.getElementById("live");
  }

  function shownBy(live) {
    return document.querySelector(live.dataset.liveTarget);
  }

  function busy() {
    // A request of this page (an entry, a picked tile, "choose another tile") is on its way:
    // its own answer brings the new table, into the element it was sent from.
    const live = poller();
    return Array.prototype.some.call(document.querySelectorAll(".htmx-request"), function (el) {
      return el !== live;
    });
  }

  // Pushed changes: the page holds an event stream open (data-changes) on which the server
  // sends the game's version as soon as it changes. While it is open the 1.5 s timer asks
  // nothing; a version newer than the page's asks the live URL at once. Without a stream
  // (no EventSource, a server that answers 204, a broken line) the timer polls as before.
  let stream = null;
  let heard = 0; // the newest version the stream said
  let asked = false; // the next request of the poller is one the stream (or a wake-up) wants

  function streaming() {
    return stream !== null && stream.readyState === window.EventSource.OPEN;
  }

  function catchUp(live) {
    asked = true;
    if (window.htmx) window.htmx.trigger(live, "catchup");
  }

  function behind(live) {
    const shown = shownBy(live);
    return shown && (heard === -1 || heard > Number(shown.dataset.version));
  }

  function follow() {
    const live = poller();
    if (!live || stream || document.hidden) return;
    if (!live.dataset.changes || !window.EventSource) {
      live.dataset.following = "polling";
      return;
    }
    stream = new window.EventSource(live.dataset.changes);
    // data-following says how the page follows: "stream", or "polling" (tests wait for it).
    stream.addEventListener("open", function () {
      live.dataset.following = "stream";
    });
    stream.addEventListener("version", function (event) {
      heard = Number(event.data);
      if (heard === -1) stopFollowing(); // deleted: the live URL says so, once
      if (behind(live)) catchUp(live);
    });
    // Behind a watch link the stream brings the new table itself: nothing to ask for.
    stream.addEventListener("page", function (event) {
      arrived(live, event.data);
    });
    stream.addEventListener("error", function () {
      // Closed for good (a 204 or a 404): poll. Otherwise the browser opens it again itself.
      if (stream && stream.readyState === window.EventSource.CLOSED) {
        stream = null;
        live.dataset.following = "polling";
      }
    });
  }

  function stopFollowing() {
    if (stream) stream.close();
    stream = null;
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    const live = poller();
    if (!live || event.detail.elt !== live) return;
    const wanted = asked;
    asked = false;
    if (document.hidden || busy() || !shownBy(live)) event.preventDefault();
    // While the stream is open the timer asks nothing, unless the page is still behind what
    // the stream said (an answer lost on the way): then it asks until it has caught up.
    else if (streaming() && !wanted && !behind(live)) event.preventDefault();
  });

  // A version heard while this page's own request was on its way: asked for once it lands.
  document.addEventListener("htmx:afterSettle", function (event) {
    const live = poller();
    // The poller's own answer settles before live.js swaps it in (htmx:afterRequest).
    if (!live || event.target === live) return;
    if (streaming() && !busy() && behind(live)) catchUp(live);
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", follow);
  else follow();

  document.addEventListener("htmx:configRequest", function (event) {
    const live = poller();
    if (!live || event.detail.elt !== live) return;
    const shown = shownBy(live);
    if (!shown) return;
    // The server's entity tag: the version and the page's language (a page says its words
    // in one language, so a table in another is not the same answer).
    const language = document.documentElement.lang || "en";
    event.detail.headers["If-None-Match"] = '"v' + shown.dataset.version + "-" + language + '"';
    const picked = shown.querySelector("form.choose-end input[name=tile]");
    if (picked) event.detail.parameters.selected = picked.value;
    // A larger set's tray: the end tapped first (and the number it showed), or the lead's.
    const end = shown.querySelector(".pick-ends [aria-pressed=true]");
    if (end) {
      event.detail.parameters.end = end.dataset.end;
      event.detail.parameters.shows = end.dataset.shows;
    }
    const number = shown.querySelector(".pick-numbers [aria-pressed=true]");
    if (number) event.detail.parameters.number = number.dataset.number;
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    const live = poller();
    if (!live || event.detail.elt !== live) return;
    const xhr = event.detail.xhr;
    if (xhr && xhr.status === 404) {
      // The game was deleted: the alerts say so (the server's fragment), and asking again
      // would only add "no such game" answers, which the limit on unknown links counts
      // for the whole address (every phone and table behind the same router).
      stopFollowing();
      live.remove();
      return;
    }
    if (!xhr || xhr.status !== 200) return;
    arrived(live, xhr.responseText);
  });

  // A newer table (or board), from the live URL or pushed on the stream: swapped in.
  function arrived(live, html) {
    const shown = shownBy(live);
    const fresh = new DOMParser().parseFromString(html, "text/html").body.firstElementChild;
    if (!shown || !fresh || fresh.id !== shown.id) return;
    heard = Math.max(heard, Number(fresh.dataset.version));
    // Swapping now would pull the table out from under a request of this page still on its
    // way (its answer would then land in a detached table): that answer is newer anyway.
    if (busy()) return;
    // A poll answered before this page's own entry landed must not bring back an older table.
    if (Number(fresh.dataset.version) <= Number(shown.dataset.version)) return;
    replace(shown, html, live.dataset.liveTarget);
    cue();
    moveOn(live);
  }

  // A finished game whose rematch has just started (the scorekeeper tapped Rematch): the
  // page goes on to the rematch, behind the same kind of link (the watch page to the
  // rematch's, the board to its board). Only as news: a finished game opened on purpose stays.
  function moveOn(live) {
    const shown = shownBy(live);
    const next = shown && shown.querySelector("[data-rematch]");
    if (next && !leaving) window.location.assign(next.dataset.rematch);
  }

  // This page is on its way somewhere by itself (a form sent without htmx, such as Rematch on
  // this very phone): it is not sent elsewhere in the middle.
  let leaving = false;
  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form instanceof HTMLFormElement && !form.hasAttribute("hx-post")) leaving = true;
  });
  window.addEventListener("pageshow", function () {
    leaving = false; // back from the page it went to (the browser's page cache)
  });

  // When the phone wakes up or the tab comes back, catch up at once.
  document.addEventListener("visibilitychange", function () {
    const live = poller();
    // A phone in a pocket holds no stream open; back on screen it follows again.
    if (document.hidden) stopFollowing();
    else follow();
    if (live && !document.hidden) catchUp(live);
  });

  function remember(shown) {
    const typed = {};
    shown.querySelectorAll("input[type=text], textarea").forEach(function (field) {
      if (field.name && field.value) typed[field.name] = field.value;
    });
    // Boxes the reader ticked or unticked (the page came with them the other way), by name and
    // value: the held tiles tapped during a settlement, a radio button chosen.
    const ticked = {};
    shown.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
      if (box.name && box.checked !== box.defaultChecked) {
        ticked[box.name + "\n" + box.value] = box.checked;
      }
    });
    const folds = {};
    shown.querySelectorAll("details[class]").forEach(function (fold) {
      folds[fold.className] = fold.open;
    });
    const active = document.activeElement;
    let focus = null;
    if (active && shown.contains(active)) {
      if (active.id) focus = "#" + CSS.escape(active.id);
      else if (active.name) {
        focus = active.tagName.toLowerCase() + '[name="' + CSS.escape(active.name) + '"]';
        if (active.value && active.tagName === "BUTTON") {
          focus += '[value="' + CSS.escape(active.value) + '"]';
        }
      }
    }
    return {
      typed: typed,
      ticked: ticked,
      folds: folds,
      focus: focus,
      x: window.scrollX,
      y: window.scrollY,
    };
  }

  function restore(shown, state) {
    Object.keys(state.typed).forEach(function (name) {
      const field = shown.querySelector('[name="' + CSS.escape(name) + '"]');
      if (field && !field.value) field.value = state.typed[name];
    });
    // The same box on the new table (same name and value) is ticked or unticked again; the
    // settlement tray's script then greys out the tiles ticked for another player.
    shown.querySelectorAll("input[type=checkbox], input[type=radio]").forEach(function (box) {
      const key = box.name + "\n" + box.value;
      if (key in state.ticked) box.checked = state.ticked[key];
    });
    shown.querySelectorAll("details[class]").forEach(function (fold) {
      if (fold.className in state.folds) fold.open = state.folds[fold.className];
    });
    if (state.focus) {
      const again = shown.querySelector(state.focus);
      if (again) again.focus({ preventScroll: true });
    }
    window.scrollTo(state.x, state.y);
  }

  function replace(shown, html, selector) {
    const state = remember(shown);
    window.htmx.swap(shown, html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    const now = document.querySelector(selector);
    if (now) restore(now, state);
  }

  function cue() {
    const note = document.getElementById("live-cue");
    if (!note) return;
    note.hidden = false;
    const words = note.textContent; // the page's word, in its language
    note.textContent = words; // said again by the live region
    note.classList.add("live-cue--on");
    clearTimeout(cueTimer);
    cueTimer = setTimeout(function () {
      note.classList.remove("live-cue--on");
      note.hidden = true;
    }, CUE_MS);
  }
})();
