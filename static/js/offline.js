/* Registers the service worker (served as /sw.js, see templates/sw.js), which shows a page
   saying the server cannot be reached when a page cannot be loaded. Its address and scope
   come from this script's data-service-worker and data-scope attributes. */

(() => {
  "use strict";

  const script = document.currentScript;
  if (!("serviceWorker" in navigator) || !script || !script.dataset.serviceWorker) {
    return;
  }
  const url = script.dataset.serviceWorker;
  const scope = script.dataset.scope || "/";
  // After the page has loaded, so installing it never slows the page down.
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(url, { scope }).catch((error) => {
      console.warn(url, error); // the developer's console: which worker failed, and why
    });
  });
})();
