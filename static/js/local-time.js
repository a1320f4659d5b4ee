/* Times in the reader's time zone (scorekeeper/web/site/times.py).

   The server writes every time as <time datetime="2026-11-22T10:05:00Z" data-local="...">
   with UTC text; this rewrites the text in the browser's own time zone, in the same shape:
   "datetime" 2026-11-22 11:05, "date" 2026-11-22, "time" 11:05, "long-date" 22 November
   2026. A month is named in the page's language (<html lang>), as the server names it:
   "22 november 2026" in Svenska, "22 Nobyembre 2026" in Filipino. The UTC text stays in the
   title. */

(() => {
  "use strict";

  const LANGUAGE = document.documentElement.lang || "en";

  function parts(moment, options) {
    const found = {};
    const format = new Intl.DateTimeFormat([LANGUAGE, "en-GB"], {
      hourCycle: "h23",
      numberingSystem: "latn",
      ...options,
    });
    for (const part of format.formatToParts(moment)) found[part.type] = part.value;
    return found;
  }

  function written(moment, style) {
    const day = parts(moment, { year: "numeric", month: "2-digit", day: "2-digit" });
    const date = `${day.year}-${day.month}-${day.day}`;
    const clock = parts(moment, { hour: "2-digit", minute: "2-digit" });
    const time = `${clock.hour}:${clock.minute}`;
    if (style === "date") return date;
    if (style === "time") return time;
    if (style === "long-date") {
      const long = parts(moment, { year: "numeric", month: "long", day: "numeric" });
      return `${long.day} ${long.month} ${long.year}`;
    }
    return `${date} ${time}`;
  }

  function localize(root) {
    for (const element of root.querySelectorAll("time[data-local][datetime]")) {
      if ("utc" in element.dataset) continue;
      const moment = new Date(element.getAttribute("datetime"));
      if (Number.isNaN(moment.getTime())) continue;
      element.dataset.utc = element.textContent;
      element.title = `${element.textContent.replace(/ UTC$/, "")} UTC`;
      element.textContent = written(moment, element.dataset.local);
    }
  }

  document.addEventListener("htmx:load", (event) => localize(event.detail.elt));
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => localize(document));
  } else {
    localize(document);
  }
})();
