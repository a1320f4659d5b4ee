/* An entry that did not reach the server is never dropped silently.

   An entry is an htmx POST that carries the game's version (the hidden "version" of every
   entry form). When it fails at the network level, takes longer than ENTRY_TIMEOUT_MS, or is
   answered with a server error (5xx), the page says so beside the form, "Not saved", with a
   "Send again" button that sends the same fields again. Sending twice is safe: the version was
   taken from the table the entry was made on, so if the first one did arrive the server
   refuses the second as stale (409) and shows the table as it is. While one waits, the
   table sends no other entry: a tap brings the notice back instead, which says that tap was
   not sent (naming it, "Not sent either: Bob's 6-1 on W.").

   The new-game form is looked after the same way (its htmx POSTs aim at #new-game): "Start the
   game" pressed while the server cannot be reached says so, and "Send again" sends the names
   and rules typed. If the first one did arrive, sending again starts a second game.

   The words are the page's, in its language: the data-words-* attributes of this script's own
   tag (templates/base.html); "{status}" in them stands for the server's error code. */

(() => {
  "use strict";

  const ENTRY_TIMEOUT_MS = 10000;
  const TABLE = "#table";
  const NEW_GAME = "new-game";
  let pending = null; // {path, values, target, reason, name}: the last entry not saved
  const script = document.currentScript;
  const WORDS = (script && script.dataset) || {};

  function said(name, values) {
    const text = WORDS[name] || "";
    return text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
  }

  function startsGame(config) {
    return Boolean(config.target && config.target.id === NEW_GAME);
  }

  function isEntry(config) {
    return Boolean(
      config &&
        config.verb === "post" &&
        config.formData &&
        (config.formData.has("version") || startsGame(config)),
    );
  }

  function valuesOf(formData) {
    const values = {};
    for (const [name, value] of formData.entries()) {
      if (typeof value === "string") {
        values[name] = value;
      }
    }
    return values;
  }

  /* The words: "Not saved: Ann's 6-6 on E." then why and what to do, when the entry's form
     names it (data-words-entry, its tile and end filled in from what was sent); else why.
     On a hand's screen (compact) the server not reached is said in a few words, what to check
     (the Wi-Fi, the laptop): the notice must show whole in the room above the picture. */
  function reasonText(reason, name, compact) {
    if (name) {
      const why = reason.status
        ? said("wordsFailedWhy", { status: String(reason.status) })
        : compact
          ? ""
          : said("wordsUnreachedWhy", {});
      const unreached = compact ? "wordsUnreachedShort" : "wordsUnreachedAdvice";
      const advice = said(reason.status ? "wordsFailedAdvice" : unreached, {});
      return {
        headline: said("wordsNamed", { entry: name }),
        advice: why ? `${why} ${advice}` : advice,
      };
    }
    if (reason.status) {
      return {
        headline: said("wordsFailed", { status: String(reason.status) }),
        advice: said("wordsFailedAdvice", {}),
      };
    }
    return {
      headline: said("wordsUnreached", {}),
      advice: said("wordsUnreachedAdvice", {}),
    };
  }

  /* Put ``text`` in ``element``, each tile name ("6-4") in a span kept on one line
     (app.css .tile-nowrap): a line may break after a hyphen, even between two digits. */
  function fill(element, text) {
    element.replaceChildren();
    const parts = text.split(/(\b\d{1,2}-\d{1,2}\b)/);
    parts.forEach((part, index) => {
      if (index % 2) {
        const tile = document.createElement("span");
        tile.className = "tile-nowrap";
        tile.textContent = part;
        element.append(tile);
      } else if (part) {
        element.append(part);
      }
    });
  }

  function notice() {
    return document.querySelector("[data-not-saved]");
  }

  function build() {
    const box = document.createElement("div");
    box.className = "not-saved";
    box.setAttribute("role", "alert");
    box.dataset.notSaved = "";
    const text = document.createElement("p");
    const headline = document.createElement("strong");
    headline.dataset.notSavedHeadline = "";
    const advice = document.createElement("span");
    advice.dataset.notSavedAdvice = "";
    text.append(headline, " ", advice);
    // A tap on another entry while this one waits: said here, so that it is not lost unsaid.
    const held = document.createElement("p");
    held.className = "not-saved-held";
    held.dataset.notSent = "";
    held.hidden = true;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "primary";
    button.dataset.sendAgain = "";
    button.addEventListener("click", sendAgain);
    box.append(text, button, held);
    return box;
  }

  function formFor(path) {
    const table = document.querySelector(TABLE);
    const selector = `form[action="${CSS.escape(path)}"]`;
    return (table && table.querySelector(selector)) || document.querySelector(selector);
  }

  /* Where the notice goes: on a hand's screen, in its news, the top of the stage that the
     picture gives room to (so the tray and Draw / Undo stay where the thumb is); else just
     before the form the entry came from, or the form of the same address in a table swapped
     in since, else at the top of the table or in the alerts. */
  function playNews() {
    const table = document.querySelector(TABLE);
    return table && table.querySelector(".screen--fit > .stage > .news");
  }

  function place(box, form) {
    const table = document.querySelector(TABLE);
    const news = playNews();
    if (news) {
      news.append(box);
      return;
    }
    let anchor = form && form.isConnected ? form : null;
    if (!anchor && pending) {
      anchor = formFor(pending.path);
    }
    if (anchor) {
      anchor.before(box);
    } else if (table) {
      const after = table.querySelector(".scoreboard");
      if (after) {
        after.after(box);
      } else {
        table.prepend(box);
      }
    } else {
      (document.getElementById("alerts") || document.querySelector("main")).append(box);
    }
  }

  function show(form, reveal) {
    const box = notice() || build();
    const words = reasonText(pending.reason, pending.name, Boolean(playNews()));
    fill(box.querySelector("[data-not-saved-headline]"), words.headline);
    fill(box.querySelector("[data-not-saved-advice]"), words.advice);
    const button = box.querySelector("[data-send-again]");
    button.disabled = false;
    button.textContent = said("wordsSendAgain", {});
    const news = playNews();
    const misplaced = news
      ? box.parentElement !== news
      : form && form.isConnected && box.nextElementSibling !== form;
    if (!box.isConnected || misplaced) {
      place(box, form);
    }
    if (reveal) {
      box.scrollIntoView({ block: "nearest" });
    }
  }

  /* Another entry tapped while one waits is not sent (see below): the notice says so, naming
     it when its form does ("Bob's 6-1 on W was not sent..."), until the waiting one goes. */
  function notSent(config) {
    const sender = config.elt;
    const form = sender && sender.closest ? sender.closest("form") : null;
    const name = nameOf(form, valuesOf(config.formData));
    const held = notice() && notice().querySelector("[data-not-sent]");
    if (!held) {
      return;
    }
    fill(held, name ? said("wordsHeldNamed", { entry: name }) : said("wordsHeld", {}));
    held.hidden = false;
  }

  function clear() {
    pending = null;
    const box = notice();
    if (box) {
      box.remove();
    }
  }

  function sendAgain(event) {
    if (!pending || !window.htmx) {
      return;
    }
    const button = event.currentTarget;
    button.disabled = true;
    button.textContent = said("wordsSending", {});
    // From the entry's form when the table still has it, so that the live view (live.js)
    // sees an entry on its way; the values sent are the ones that failed, version included.
    const source =
      formFor(pending.path) || document.querySelector(pending.target) || document.body;
    resending = true;
    try {
      window.htmx.ajax("POST", pending.path, {
        source,
        target: pending.target,
        swap: "outerHTML",
        values: pending.values,
      });
    } finally {
      resending = false;
    }
  }

  function nameOf(form, values) {
    const words = form && form.dataset.wordsEntry;
    if (!words) {
      return "";
    }
    return words.replace(/\{(tile|end)\}/g, (whole, key) => values[key] || whole);
  }

  function failed(detail, reason) {
    const config = detail.requestConfig;
    const target = startsGame(config) ? `#${NEW_GAME}` : TABLE;
    // The element that sent it (a server error's detail.elt is the table it would replace).
    const sender = config.elt || detail.elt;
    const form = sender && sender.closest ? sender.closest("form") : null;
    const values = valuesOf(config.formData);
    // Sent again and failed again: the same entry, named as the first time.
    const name = nameOf(form, values) || (pending && pending.path === config.path ? pending.name : "");
    pending = { path: config.path, values, target, reason, name };
    show(form, true);
  }

  /* While an entry waits to be sent again, no other entry of the table goes: it was made on
     the same table, so it would either take the waiting one's place (which would then never
     be sent) or be refused as stale once the waiting one is. The tap brings the notice back
     into view instead, and its button has the focus. Sending again is the way on. */
  let resending = false;
  document.addEventListener("htmx:beforeRequest", (event) => {
    const config = event.detail.requestConfig;
    if (!pending || resending || !isEntry(config) || startsGame(config)) {
      return;
    }
    event.preventDefault();
    show(null, true);
    notSent(config);
    const button = notice() && notice().querySelector("[data-send-again]");
    if (button) {
      button.focus({ preventScroll: true });
    }
  });

  document.addEventListener("htmx:configRequest", (event) => {
    if (isEntry(event.detail) && !event.detail.timeout) {
      event.detail.timeout = ENTRY_TIMEOUT_MS;
    }
  });

  document.addEventListener("htmx:sendError", (event) => {
    if (isEntry(event.detail.requestConfig)) {
      failed(event.detail, { network: true });
    }
  });

  document.addEventListener("htmx:timeout", (event) => {
    if (isEntry(event.detail.requestConfig)) {
      failed(event.detail, { timeout: true });
    }
  });

  /* A server error is not swapped in (a proxy's error page would replace the table); any
     other answer, even a refusal, settles the entry that was not saved. */
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = event.detail;
    if (!isEntry(detail.requestConfig)) {
      return;
    }
    if (detail.xhr.status >= 500) {
      detail.shouldSwap = false;
      failed(detail, { status: detail.xhr.status });
    } else {
      clear();
    }
  });

  /* Whether the table shows the waiting entry as stored: a play whose answer was lost on the
     way back, its tile now on the table of a newer version (brought by the live view). */
  function storedAfterAll(table) {
    const tile = pending && pending.values.tile;
    if (!table || !tile || pending.target !== TABLE) {
      return false;
    }
    const newer = Number(table.dataset.version) > Number(pending.values.version);
    return newer && table.querySelector(`.table-picture [data-tile="${CSS.escape(tile)}"]`) !== null;
  }

  /* A table swapped in by anything else (another phone's entry seen by the live view) keeps
     the notice, beside the same form if the new table has it; unless it shows the entry
     stored after all: then there is nothing left to send. */
  document.addEventListener("htmx:afterSwap", () => {
    if (storedAfterAll(document.querySelector(TABLE))) {
      clear();
    } else if (pending && !notice()) {
      show(null, false);
    }
  });
})();
