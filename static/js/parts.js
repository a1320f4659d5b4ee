// An entry swaps only what it changed.
//
// Parts of the table (each of the tray's tiles, the layout picture, each finished hand in the
// list of hands) carry an id and a fingerprint of what they show (data-part;
// scorekeeper/web/drawing/fragments.py, part). With an entry sent from the table this script
// names the parts the page holds; the answer to a stored entry sends a part the page holds
// unchanged empty, marked hx-preserve, and htmx keeps the page's own element in its place
// (taken out while it swaps, and put back). A phone with a slow CPU then receives, parses and
// builds only what the entry changed. Without this script (or without JavaScript) every
// answer carries the whole table.
//
// Before the answer is swapped in, each part it leaves out must still be on the page with the
// fingerprint it was sent for; if not (something changed the page meanwhile), the page is
// loaded again rather than showing a part out of date.
(function () {
  "use strict";

  const HEADER = "X-Table-Parts";
  const KEPT = /<[a-z][a-z0-9-]* id="([^"]+)" data-part="([0-9a-f]+)" hx-preserve="true">/g;

  function table() {
    return document.getElementById("table");
  }

  document.addEventListener("htmx:configRequest", function (event) {
    const shown = table();
    const elt = event.detail.elt;
    if (!shown || event.detail.verb !== "post" || event.detail.target !== shown) return;
    if (!elt || !shown.contains(elt)) return;
    const held = [];
    shown.querySelectorAll("[data-part]").forEach(function (part) {
      if (part.id) held.push(part.id + "=" + part.dataset.part);
    });
    if (held.length) event.detail.headers[HEADER] = held.join(" ");
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const text = event.detail.serverResponse;
    if (!event.detail.shouldSwap || typeof text !== "string" || text.indexOf("hx-preserve") < 0) {
      return;
    }
    for (const found of text.matchAll(KEPT)) {
      const held = document.getElementById(found[1]);
      if (!held || held.dataset.part !== found[2]) {
        event.detail.shouldSwap = false;
        window.location.reload();
        return;
      }
    }
  });
})();
