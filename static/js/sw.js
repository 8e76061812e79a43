/* The referee's tablet offline (issue 28): this service worker keeps the referee's desk and the current game's
   record sheets, so they open without a network. The actions typed offline are queued by js/offline.js, not here.

   Written by hand rather than with Workbox: it does three small things (keep a list of pages the desk names,
   answer from them only when the network fails, forget them at sign-out), Workbox would add a build step or a
   vendored bundle of several times this size, and every rule below about what may be kept is easier to check
   in forty lines than in a library's configuration.

   What it keeps, and only that:
   - the pages the desk page asks for (the desk, its game's sheets, the referee's home), fetched with the
     referee's own session: a page that answers with anything but the page itself (a sign-in redirect, an error)
     is not kept. Only addresses under /referee/ (with or without a language prefix) are ever kept, so public
     pages with players' data and staff pages of other users never are;
   - the static files (CSS, scripts, fonts, icons) those pages use.
   Pages are always asked from the network first; the kept copy answers only when the network fails. htmx's
   partial requests are never answered from the cache. Signing out (a POST to /accounts/logout/) empties
   everything kept; signing in as another user (a session that expired without signing out) empties the
   pages kept.

   The addresses it recognises come from the URL configuration: catan_tournaments/pwa.py sends this file after a
   line `const ROUTES = {…}` (the referee's home, sign-in, sign-out, the player's page, the static files, the
   icon, and the language prefixes), so nothing here spells a route. */
"use strict";

const PAGES = "catan-pages";
const STATIC = "catan-static";
const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const LANGUAGE = `(?:(?:${ROUTES.languages.map(literal).join("|")})/)?`;
// An address of the default language (it starts with "/"), under any language's prefix or none.
const route = (path, rest = "") => new RegExp(`^/${LANGUAGE}${literal(path.slice(1))}${rest}`);
const REFEREE_PAGE = route(ROUTES.referee);
const SIGN_OUT = route(ROUTES.signOut, "$");
const SIGN_IN = route(ROUTES.signIn, "$");
const STATIC_FILE = new RegExp(`^${literal(ROUTES.static)}`);
const STATIC_LINK = new RegExp(`(?:src|href)="(${literal(ROUTES.static)}[^"]+)"`, "g");

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

function forgetAll() {
  return Promise.all([
    caches.keys().then((names) => Promise.all(names.map((name) => caches.delete(name)))),
    new Promise((resolve) => {
      const request = indexedDB.deleteDatabase("catan-offline");
      request.onsuccess = request.onerror = request.onblocked = resolve;
    }),
  ]);
}

const FRESH = 2 * 60 * 1000;  // a page kept this recently is not asked again when the desk is opened again

async function keep(url) {
  const path = new URL(url, self.location.origin).pathname;
  if (!REFEREE_PAGE.test(path)) return;
  const pages = await caches.open(PAGES);
  const kept = await pages.match(url, { ignoreVary: true });
  if (kept && Date.now() - Number(kept.headers.get("X-Kept-At")) < FRESH) return;
  const response = await fetch(url, { credentials: "same-origin", redirect: "manual" });
  if (response.status !== 200 || !(response.headers.get("content-type") || "").startsWith("text/html")) return;
  const html = await response.text();
  const headers = { "Content-Type": response.headers.get("content-type"), "X-Kept-At": String(Date.now()) };
  await pages.put(url, new Response(html, { status: 200, headers }));
  const files = [...html.matchAll(STATIC_LINK)].map((match) => match[1]);
  const store = await caches.open(STATIC);
  await Promise.all(files.map(async (file) => {
    if (await store.match(file)) return;
    const answer = await fetch(file);
    if (answer.ok) await store.put(file, answer);
  }));
}

const OWNER = "/sw-owner";  // whose pages are kept: a worker's variables do not survive its restarts

async function ownedBy(user) {
  const store = await caches.open(PAGES);
  const kept = await store.match(OWNER);
  if (kept && (await kept.text()) !== user) {
    await caches.delete(PAGES);
    return ownedBy(user);
  }
  if (!kept) await store.put(OWNER, new Response(user));
}

self.addEventListener("message", (event) => {
  const { type, user, urls } = event.data || {};
  if (type !== "keep" || typeof user !== "string" || !Array.isArray(urls)) return;
  event.waitUntil((async () => {
    await ownedBy(user);
    for (const url of urls) {
      try { await keep(url); } catch (error) { /* the network went away meanwhile: keep what is kept */ }
    }
    if (event.source) event.source.postMessage({ type: "kept" });
  })());
});

async function networkFirst(request, cacheName) {
  const store = await caches.open(cacheName);
  try {
    const response = await fetch(request);
    if (response.status === 200 && !response.redirected && await store.match(request, { ignoreVary: true })) {
      await store.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const kept = await store.match(request, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method === "POST" && SIGN_OUT.test(url.pathname)) {
    event.waitUntil(forgetAll());
    return;
  }
  if (request.method === "POST" && SIGN_IN.test(url.pathname)) {  // someone else signing in: the pages kept go
    event.waitUntil(request.clone().formData().then((form) => ownedBy(String(form.get("username") || "")))
      .catch(() => caches.delete(PAGES)));
    return;
  }
  if (request.method !== "GET" || request.headers.get("HX-Request")) return;
  if (REFEREE_PAGE.test(url.pathname)) event.respondWith(networkFirst(request, PAGES));
  else if (STATIC_FILE.test(url.pathname)) event.respondWith(networkFirst(request, STATIC));
});

/* A player's phone told their table (issue 25; web/players/static/players/push.js subscribes it, results/notices.py
   sends it): the message is JSON with a title, a body and the game's public page. A tap opens the player's own
   page when it is open already (its address is the private link, so it is never in the message), else that page. */
const PLAYER_PAGE = route(ROUTES.playerPage[0], `[^/]+${literal(ROUTES.playerPage[1])}$`);

self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { /* not ours: shown with the site's name */ }
  event.waitUntil(self.registration.showNotification(data.title || "CATAN", {
    body: data.body || "", tag: data.tag, data: { url: data.url || "/" }, icon: ROUTES.icon }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((windows) => {
    const own = windows.find((client) => PLAYER_PAGE.test(new URL(client.url).pathname));
    if (own) return own.focus().then((client) => client.navigate(client.url)).catch(() => undefined);
    return self.clients.openWindow(event.notification.data.url);
  }));
});
