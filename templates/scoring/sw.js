/* Hanchan service worker (issue 21): the referee's pages keep working when the Wi-Fi drops.
 *
 * Served by scoring.offline.service_worker from the referee pages' folder, so its scope covers
 * the table list and every entry page. Caches are named with the deploy's version; a new
 * version deletes the old caches when it activates.
 *
 * - static files: cache first (pre-cached at install);
 * - the referee's pages: network first, the last copy from the cache when offline, kept per
 *   user (issue 30.5: a shared phone): each page answer names its user (header X-Hanchan-User,
 *   core/offline_user.py) and every page of the site tells the worker who is logged in now
 *   (static/js/site.js); the pages of any other user, or of nobody, are dropped, and offline a
 *   page is served only from the cache of the user last seen;
 * - the queue of hands (static/js/offline-queue.js, imported) is also sent from here on a
 *   Background Sync event, so the hands go out when the connection returns with the page closed;
 * - anything else, and every POST: straight to the network (hands made offline are queued by
 *   the page itself, in IndexedDB, and sent with their Idempotency-Key: static/js/offline.js);
 *   a script's POST does not even start the worker (a static route, registered at install);
 * - except the entry form's Confirm when the connection fails under it (Wi-Fi "connected" but
 *   dead, so the page thought it was online): the form's fields are kept in the same IndexedDB
 *   queue and the referee is sent back to the entry page, which turns them into a waiting hand.
 *   If that POST did reach the server, the hand is found there when the queue is sent and is
 *   not entered again.
 */
"use strict";

importScripts({{ queue_script|safe }}); // self.HanchanQueue: the page's queue, shared

const VERSION = "{{ version }}";
const STATIC_CACHE = "hanchan-static-" + VERSION;
const PAGES_PREFIX = "hanchan-pages-";
const PAGES_OF_VERSION = PAGES_PREFIX + VERSION + "-";
// One entry: the marker of the user logged in when the worker last heard ("" for nobody).
const USER_CACHE = "hanchan-user";
const USER_KEY = "/__hanchan-offline-user";
const PRECACHE = {{ precache|safe }};
const OFFLINE_URL = {{ offline_url|safe }};
const PAGE_PATTERNS = {{ page_patterns|safe }}.map((source) => new RegExp(source));
const ADD_HAND = new RegExp({{ add_hand_pattern|safe }});
const ENTRY_URL = {{ entry_url|safe }};
// A Confirm whose answer takes longer than this is kept on the phone (and found on the server
// when the queue is sent, if it did arrive).
const POST_TIMEOUT_MS = 15000;

function isPage(url) {
  return url.origin === self.location.origin && PAGE_PATTERNS.some((re) => re.test(url.pathname));
}

function pageKey(url) {
  return url.origin + url.pathname;
}

function pagesCache(user) {
  return PAGES_OF_VERSION + user;
}

async function currentUser() {
  const hit = await caches.match(USER_KEY, { cacheName: USER_CACHE });
  return hit ? hit.text() : "";
}

// A page answer or a page of the site named the user logged in now: remember it if new.
async function seen(user) {
  if (user !== (await currentUser())) await setUser(user);
}

// `user` is logged in now ("" for nobody): the pages kept for anyone else go.
async function setUser(user) {
  const keys = await caches.keys();
  await Promise.all(
    keys
      .filter((k) => k.startsWith(PAGES_PREFIX) && (!user || k !== pagesCache(user)))
      .map((k) => caches.delete(k)),
  );
  const cache = await caches.open(USER_CACHE);
  await cache.put(USER_KEY, new Response(user));
}

self.addEventListener("install", (event) => {
  // Issue 33: the page's own POSTs (Confirm's hand, sent with fetch; the queue's and a referee
  // call's API requests) are never answered here (see "fetch" below), yet each one started a
  // stopped worker and waited for its fetch event before going out (15 ms median in desktop
  // Chromium; a phone's worker stops after 30 s idle, so before nearly every hand). The
  // browser sends them itself (Service Worker Static Routing API; a `not` condition may not
  // be combined with a method, hence one route per mode); only a navigation's POST (the
  // form's own Confirm, postOrKeep) still comes here. A browser without the API: the fetch
  // event passes them on as before.
  if (event.addRoutes) {
    event.waitUntil(
      event
        .addRoutes(
          ["cors", "same-origin", "no-cors"].map((mode) => ({
            condition: { requestMethod: "POST", requestMode: mode },
            source: "network",
          })),
        )
        .catch(() => {}), // refused: the fetch event passes them on as before
    );
  }
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
            .filter(
              (k) =>
                k.startsWith("hanchan-") &&
                k !== STATIC_CACHE &&
                k !== USER_CACHE &&
                !k.startsWith(PAGES_OF_VERSION),
            )
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

async function forgetPages() {
  await setUser("");
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
    const user = response.headers.get("X-Hanchan-User");
    if (response.type === "opaqueredirect" || response.redirected) {
      // Logged out (redirected to the login page): no referee page stays on the phone.
      await forgetPages();
    } else if (user !== null) {
      await seen(user);
      if (user && response.ok && response.type === "basic") {
        const cache = await caches.open(pagesCache(user));
        await cache.put(pageKey(url), response.clone());
      }
    }
    return response;
  } catch (error) {
    // A "no-store" request asks the server itself (the queue's fresh CSRF token, who is logged
    // in): a kept copy would carry an old token, so it fails as the network did.
    if (request.cache === "no-store") return Response.error();
    // Offline: only the pages of the user last seen on this phone, never another's.
    const user = await currentUser();
    const hit = user ? await caches.match(pageKey(url), { cacheName: pagesCache(user) }) : null;
    if (hit) return hit;
    const fallback = await caches.match(OFFLINE_URL, { cacheName: STATIC_CACHE });
    return fallback || Response.error();
  }
}

async function keepForm(game, form) {
  const raw = {};
  for (const [name, value] of form.entries()) {
    if (name === "csrfmiddlewaretoken") continue;
    (raw[name] = raw[name] || []).push(String(value));
  }
  await self.HanchanQueue.put({
    game: Number(game),
    user: null, // the entry page claims it for the logged-in referee
    raw: raw,
    key: self.HanchanQueue.uuid(),
    enteredAt: new Date().toISOString(),
    state: "kept",
  });
}

async function postOrKeep(request, game) {
  const copy = request.clone();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), POST_TIMEOUT_MS);
  try {
    return await fetch(request, { signal: controller.signal });
  } catch (error) {
    await keepForm(game, await copy.formData());
    const entry = new URL(ENTRY_URL.replace("987654321", game), self.location.origin);
    return Response.redirect(entry.href, 303);
  } finally {
    clearTimeout(timer);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST") {
    const match = request.mode === "navigate" ? ADD_HAND.exec(url.pathname) : null;
    if (match) event.respondWith(postOrKeep(request, match[1]));
    return;
  }
  if (request.method !== "GET") return;
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
  for (const href of urls) {
    const url = new URL(href, self.location.origin);
    if (!isPage(url)) continue;
    try {
      const response = await fetch(url.href, { credentials: "same-origin", redirect: "manual" });
      const user = response.headers.get("X-Hanchan-User");
      if (user !== null) await seen(user); // the server's word on who is logged in now
      if (response.ok && response.type === "basic" && user) {
        const cache = await caches.open(pagesCache(user));
        await cache.put(pageKey(url), response);
      }
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
    event.waitUntil(Promise.all([forgetPages(), self.HanchanQueue.clearMeta()]));
  } else if (data.type === "user" && typeof data.user === "string") {
    // Every page says who is logged in (static/js/site.js): another user, or nobody, and
    // the pages kept for the last one go.
    event.waitUntil(
      currentUser().then((user) =>
        user === data.user ? undefined : Promise.all([seen(data.user), self.HanchanQueue.clearMeta()]),
      ),
    );
  }
});

// Background Sync: the browser wakes the worker when the connection returns, also with the
// page closed; the queue goes out as the page would send it (static/js/offline-queue.js).
async function sendQueue() {
  const meta = await self.HanchanQueue.getMeta();
  if (!meta || !meta.user) return;
  const result = await self.HanchanQueue.sender({ ...meta, checkUser: true }).flush();
  if (result.sent) {
    const windows = await self.clients.matchAll({ type: "window" });
    windows.forEach((client) =>
      client.postMessage({ type: "sent", sent: result.sent, lastVersion: result.lastVersion }),
    );
  }
  if (result.error) throw new Error("offline"); // the browser tries the sync again later
}

self.addEventListener("sync", (event) => {
  if (event.tag === self.HanchanQueue.SYNC_TAG) event.waitUntil(sendQueue());
});
