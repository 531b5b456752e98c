// The service worker of the installable app (issue 24): the page's shell from a cache, and a page that says it is
// offline when the server cannot be reached.
//
// The server sends this file as /sw.js with a first line that defines SHELL_VERSION (a hash of the shell's files)
// and SHELL_FILES (their addresses): routes/shell.py. A deploy that changes a shell file changes this script, so
// the browser installs the new worker; it fills the cache "bummerl-shell-<version>" and deletes the older ones.
//
// What it answers, and nothing else (docs/security.md):
//   - a page (a navigation): from the network; without one, the cached offline.html ("Keine Verbindung …");
//   - a shell file (GET, this origin, no query): from the cache, else the network;
// every other request (the API, the WebSockets, anything with a query) goes to the network untouched and is never
// stored: no API answer, no seat token, no card ever lands in a cache.
/* global SHELL_VERSION, SHELL_FILES */

const CACHE_PREFIX = "bummerl-shell-";
const CACHE = CACHE_PREFIX + SHELL_VERSION;
const OFFLINE_PAGE = "/offline.html";
const SHELL = new Set(SHELL_FILES);
// A proxy's answers when the server behind it is down: the same as no connection for the player.
const GATEWAY_DOWN = new Set([502, 503, 504]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // "reload": the files from the server, not from the browser's HTTP cache (which may hold the older ones).
      await cache.addAll(SHELL_FILES.map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

async function page(request) {
  try {
    const answer = await fetch(request);
    if (!GATEWAY_DOWN.has(answer.status)) return answer;
  } catch {
    // No network, or the server refused the connection.
  }
  const offline = await caches.match(OFFLINE_PAGE);
  return offline || Response.error();
}

async function shellFile(request) {
  const cached = await caches.match(request, { cacheName: CACHE });
  return cached || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (!url.search && SHELL.has(url.pathname)) {
    event.respondWith(shellFile(request));
  }
});
