/* Hanchan service worker (issue 21): the referee's pages keep working when the Wi-Fi drops.
 *
 * Served by scoring.offline.service_worker from the referee pages' folder, so its scope covers
 * the table list and every entry page. Caches are named with the deploy's version; a new
 * version deletes the old caches when it activates.
 *
 * - static files: cache first (pre-cached at install);
 * - the referee's pages: network first, the last copy from the cache when offline;
 * - anything else, and every POST: straight to the network (hands made offline are queued by
 *   the page itself, in IndexedDB, and sent with their Idempotency-Key: static/js/offline.js).
 */
"use strict";

const VERSION = "{{ version }}";
const STATIC_CACHE = "hanchan-static-" + VERSION;
const PAGES_CACHE = "hanchan-pages-" + VERSION;
const PRECACHE = {{ precache|safe }};
const OFFLINE_URL = {{ offline_url|safe }};
const PAGE_PATTERNS = {{ page_patterns|safe }}.map((source) => new RegExp(source));

function isPage(url) {
  return url.origin === self.location.origin && PAGE_PATTERNS.some((re) => re.test(url.pathname));
}

function pageKey(url) {
  return url.origin + url.pathname;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(STATIC_CACHE)
      .then((cache) => cache.addAll(PRECACHE))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k.startsWith("hanchan-") && k !== STATIC_CACHE && k !== PAGES_CACHE)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function forgetPages() {
  await caches.delete(PAGES_CACHE);
}

async function cacheFirst(request) {
  const hit = await caches.match(request, { cacheName: STATIC_CACHE });
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(STATIC_CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

async function networkFirstPage(request, url) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === "basic" && !response.redirected) {
      const cache = await caches.open(PAGES_CACHE);
      await cache.put(pageKey(url), response.clone());
    } else if (response.type === "opaqueredirect" || response.redirected) {
      // Logged out (redirected to the login page): no referee page stays on the phone.
      await forgetPages();
    }
    return response;
  } catch (error) {
    const cache = await caches.open(PAGES_CACHE);
    const hit = await cache.match(pageKey(url));
    if (hit) return hit;
    const fallback = await caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE });
    return fallback || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(cacheFirst(request));
  } else if (isPage(url)) {
    event.respondWith(networkFirstPage(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(
      fetch(request).catch(async () => {
        const fallback = await caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE });
        return fallback || Response.error();
      }),
    );
  }
});

// The referee's table list asks to keep its tables' entry pages ("warm"); logging out on the
// phone forgets every kept page ("forget").
async function warm(urls) {
  const cache = await caches.open(PAGES_CACHE);
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (!isPage(url)) continue;
    try {
      const response = await fetch(url.href, { credentials: "same-origin", redirect: "manual" });
      if (response.ok && response.type === "basic") await cache.put(pageKey(url), response);
    } catch (error) {
      return; // offline: keep what is there
    }
  }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "warm" && Array.isArray(data.urls)) {
    event.waitUntil(warm(data.urls));
  } else if (data.type === "forget") {
    event.waitUntil(forgetPages());
  }
});
