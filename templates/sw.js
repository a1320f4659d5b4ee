/* The All Fives service worker (version {{ version }}), served as /sw.js by scorekeeper/web/site/pwa.py.

   It keeps two kinds of things, and nothing else:
   - the offline page, shown in place of any page that cannot be loaded because the server
     cannot be reached (the page itself is always asked of the server first);
   - static files whose URL carries their content hash (?v=...): such a URL never changes its
     content, so the copy kept is always right.
   Game pages, and every URL under /games/ or /watch/, are never kept: they are secret links,
   and they change with every entry. Requests other than GET are left to the browser.
   It says no words itself: the offline page it keeps is in the reader's language, and its
   version changes with that language, so a reader who switches language gets the page anew. */

"use strict";

const CACHE_PREFIX = "all-fives-";
const CACHE = CACHE_PREFIX + {{ version | tojson }};
const OFFLINE_URL = {{ offline_url | tojson }};
const PRECACHE = {{ precache | tojson }};
const STATIC_PATH = {{ static_path | tojson }};

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      ),
  );
});

/* Only a static file named by its content hash may be kept. */
function keepable(url) {
  return url.pathname.startsWith(STATIC_PATH) && url.searchParams.has("v");
}

async function pageOrOffline(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL, { cacheName: CACHE, ignoreVary: true });
    return offline || Response.error();
  }
}

async function keptOrFetched(event) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(event.request, { ignoreVary: true });
  if (kept) {
    return kept;
  }
  const response = await fetch(event.request);
  if (response.ok) {
    event.waitUntil(cache.put(event.request, response.clone()));
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(request));
  } else if (keepable(url)) {
    event.respondWith(keptOrFetched(event));
  }
});
