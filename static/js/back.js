/* Going back goes back.

   A link marked data-back ("My games", "Back to the table", "Keep it") names the page it
   leads to. When that page is the one this tab came from, the link steps back in the
   browser's history instead of adding a new entry: the page comes back where it was
   scrolled to, and the browser's own Back button then leaves the app rather than walking
   through the same pages again. Where the browser cannot tell (no Navigation API) or the
   tab came from elsewhere, the link is an ordinary link.

   A new game started with htmx replaces the new-game form in the history (the server answers
   with HX-Redirect): Back from the game goes to where the form was opened from, not to the
   form again, which would offer to start the same game twice. Table entries sent with htmx
   push nothing into the history. */

(() => {
  "use strict";

  const STORE = "back:";

  /* The Navigation API lists this tab's entries but hides their URLs (the pages send no
     referrer), so each page notes its own path under its entry's key, for this tab only. */
  function navigation() {
    const nav = window.navigation;
    return nav && nav.currentEntry && typeof nav.entries === "function" ? nav : null;
  }

  function note() {
    const nav = navigation();
    if (!nav) return;
    try {
      sessionStorage.setItem(STORE + nav.currentEntry.key, location.pathname);
    } catch (error) {
      // Storage may be full or refused: the links then stay ordinary links.
    }
  }

  function previousPath() {
    const nav = navigation();
    if (!nav) return null;
    const index = nav.currentEntry.index;
    const previous = index >= 1 ? nav.entries()[index - 1] : null;
    if (!previous) return null;
    try {
      return sessionStorage.getItem(STORE + previous.key);
    } catch (error) {
      return null;
    }
  }

  note();
  window.addEventListener("pageshow", note);

  document.addEventListener("click", (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target instanceof Element ? event.target.closest("a[data-back]") : null;
    if (!link) return;
    const target = new URL(link.href, location.href);
    if (target.origin !== location.origin || previousPath() !== target.pathname) return;
    event.preventDefault();
    history.back();
  });

  document.addEventListener("htmx:beforeOnLoad", (event) => {
    const xhr = event.detail.xhr;
    const form = event.detail.elt instanceof Element ? event.detail.elt.closest("form") : null;
    if (!xhr || !form || !form.matches("[data-replace-history]")) return;
    const target = xhr.getResponseHeader("HX-Redirect");
    if (!target) return;
    event.preventDefault();
    location.replace(target);
  });
})();
