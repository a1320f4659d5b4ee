/* Times in the reader's time zone (scorekeeper/web/site/times.py).

   The server writes every time as <time datetime="2026-11-22T10:05:00Z" data-local="...">
   with UTC text; this rewrites the text in the browser's own time zone, in the same shape,
   as the page's language (<html lang>) writes it by the CLDR's formats (the browser's Intl,
   as Babel on the server): "datetime" 22 Nov 2026, 11:05, "date" 22 Nov 2026, "time" 11:05,
   "long-date" 22 November 2026; in Svenska "22 nov. 2026 11:05", in Filipino "Nob 22, 2026,
   11:05 AM". The UTC text stays in the title. */

(() => {
  "use strict";

  /* times.py LOCALES: the site's English is British English. */
  const LOCALES = { en: "en-GB" };
  const LANGUAGE = document.documentElement.lang || "en";
  const LOCALE = LOCALES[LANGUAGE] || LANGUAGE;

  /* times.py STYLES. */
  const STYLES = {
    datetime: { dateStyle: "medium", timeStyle: "short" },
    date: { dateStyle: "medium" },
    time: { timeStyle: "short" },
    "long-date": { dateStyle: "long" },
  };

  function written(moment, style) {
    const format = new Intl.DateTimeFormat([LOCALE, "en-GB"], {
      numberingSystem: "latn",
      ...(STYLES[style] || STYLES.datetime),
    });
    return format.format(moment);
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
