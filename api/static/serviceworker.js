// The service worker's events (started by /sw.js, which api/routers/page.py writes with this deploy's version and
// page files): install caches the page, activate drops other deploys' caches, fetch answers as caching.js says.
import { NETWORK_WAIT_MS, cacheName, cacheable, fetchedAtInstall, rule, staleCaches } from "./caching.js";

/** A request for `url` past the HTTP cache's unchecked copies (revalidated: a 304 when it has not changed). */
const fresh = (url) => new Request(url, { cache: "no-cache" });

async function install(name, precache, origin) {
  const cache = await caches.open(name);
  await cache.addAll(precache.map(fresh)); // all or none
  const old = await Promise.all(staleCaches(await caches.keys(), name).map(async (stale) =>
    (await (await caches.open(stale)).keys()).map((request) => request.url)));
  // best effort: what cannot be fetched now is fetched when the page next asks for it
  await Promise.all(fetchedAtInstall(old.flat(), origin).map(async (url) => {
    const response = await fetch(fresh(url)).catch(() => null);
    if (response && cacheable(response)) await cache.put(url, response);
  }));
}

async function cacheFirst(cache, request, key) {
  const cached = await cache.match(key);
  if (cached) return cached;
  const response = await fetch(request);
  if (cacheable(response)) await cache.put(key, response.clone());
  return response;
}

/** A HEAD: the cached copy's status and headers, else the network's answer. */
async function head(cache, request, key) {
  const cached = await cache.match(key);
  return cached ? new Response(null, { status: cached.status, statusText: cached.statusText, headers: cached.headers })
    : fetch(request);
}

async function networkFirst(cache, request, key, event) {
  const network = fetch(request).then(async (response) => {
    if (cacheable(response)) await cache.put(key, response.clone());
    return response;
  });
  event.waitUntil(network.catch(() => null)); // a late answer still refreshes the cache
  const waited = new Promise((resolve) => setTimeout(resolve, NETWORK_WAIT_MS, null));
  const answer = await Promise.race([network.catch(() => null), waited]);
  if (answer && answer.status < 500) return answer;
  const cached = await cache.match(key);
  return cached ?? network; // nothing cached: the network's answer or its failure, as without a worker
}

/** Wire the worker `scope` (the ServiceWorkerGlobalScope) for deploy `version`, which precaches `precache`. */
export function startWorker(scope, { version, precache }) {
  const name = cacheName(version);
  const origin = scope.location.origin;
  scope.addEventListener("install", (event) => {
    event.waitUntil(install(name, precache, origin).then(() => scope.skipWaiting()));
  });
  scope.addEventListener("activate", (event) => {
    event.waitUntil(caches.keys()
      .then((names) => Promise.all(staleCaches(names, name).map((stale) => caches.delete(stale))))
      .then(() => scope.clients.claim()));
  });
  scope.addEventListener("fetch", (event) => {
    const found = rule(event.request, origin);
    if (!found) return; // the browser fetches it as if there were no worker
    const answer = { "cache-first": cacheFirst, "network-first": networkFirst, head }[found.strategy];
    event.respondWith(caches.open(name).then((cache) => answer(cache, event.request, found.key, event)));
  });
}
