// The companion's service worker: everything the page needs is kept in a cache when it
// is first opened, so that it keeps working at a cabin with no signal. Cached copies are
// answered at once and refreshed from the network behind them (stale while
// revalidate): a slow network never holds up a tap, and the next load has what is new.

// A new name when the kept files must change together (2: book.js reads the rules kernel
// that presets.json now serves): the new worker fetches them all afresh.
const CACHE = "gnav-companion-2";
const FILES = [
  "/companion",
  "/static/companion/companion.css",
  "/static/companion/app.js",
  "/static/companion/book.js",
  "/static/companion/speech.js",
  "/static/companion/cards52.js",
  "/static/presets.json",
  "/static/texts.json",
  "/static/favicon.svg",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) if (key !== CACHE) await caches.delete(key);
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (!FILES.includes(url.pathname)) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const cached = await cache.match(url.pathname);
    const fresh = fetch(event.request).then((res) => {
      if (res.ok) cache.put(url.pathname, res.clone());
      return res;
    });
    if (cached) {
      event.waitUntil(fresh.catch(() => null));
      return cached;
    }
    return fresh;
  })());
});
