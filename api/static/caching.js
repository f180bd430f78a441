// What the service worker (serviceworker.js) does with each request: pure decisions, tested in node. One cache per
// deploy (its name carries the hash of the page's files), so a new deploy's page never mixes with the old one's.

export const CACHE_PREFIX = "fanshot-";

// The reads the page makes to open (its rule sets, tile names, model versions): fresh when the server answers,
// the copy from the last visit when it does not.
const OPENING_READS = ["/v1/rulesets", "/v1/tiles", "/v1/models"];
const MODEL_FILE = /^\/v1\/models\/([^/]+)\/files\/[^/]+$/;
const CHANGING_VERSIONS = ["base", "active"];
const RUNTIME = "/static/vendor/onnxruntime-web/";
// How long a read waits for the server before the cached copy answers (a table's Wi-Fi that connects but does
// not carry); the network's answer still refreshes the cache when it comes.
export const NETWORK_WAIT_MS = 3000;

export const cacheName = (version) => `${CACHE_PREFIX}${version}`;

/** How the worker answers a request: `{ strategy: "cache-first" | "network-first" | "head", key, onUse }`, or
 *  null when the browser fetches it as if there were no worker (every write, photos and their readings, games,
 *  other sites). `key` is the URL it is cached under; `onUse`: cached the first time the page asks for it, not
 *  precached (the runtime's wasm files are large and only the camera mode needs them). A HEAD of something cached
 *  is answered from the cache (runtime.js asks whether the local runtime is there before it loads it). */
export function rule({ method, url, mode }, origin) {
  if (method === "HEAD") {
    const read = rule({ method: "GET", url, mode }, origin);
    return read && { ...read, strategy: "head" };
  }
  if (method !== "GET") return null;
  const address = new URL(url);
  if (address.origin !== origin) return null;
  const path = address.pathname;
  if (path === "/" && mode === "navigate") {
    // one page whatever its query (?game=ID); ?token= sets the access cookie, so only the server answers it
    return address.searchParams.has("token") ? null : { strategy: "cache-first", key: `${origin}/`, onUse: false };
  }
  const key = `${origin}${path}${address.search}`;
  if (path.startsWith(RUNTIME)) return { strategy: "cache-first", key, onUse: true };
  if (path.startsWith("/static/")) return { strategy: "cache-first", key, onUse: false };
  const modelFile = MODEL_FILE.exec(path);
  if (modelFile) {
    // an adapted version's files never change; `base` (the shipped models) changes with a release, `active`
    // names whichever version is active now
    return { strategy: CHANGING_VERSIONS.includes(modelFile[1]) ? "network-first" : "cache-first", key, onUse: true };
  }
  if (OPENING_READS.includes(path)) return { strategy: "network-first", key, onUse: true };
  return null;
}

/** Whether an answer may be kept: a whole same-origin 200 (not an error, a redirect to follow, or part of a file). */
export const cacheable = (response) => response.status === 200 && response.type === "basic";

/** The caches an activated version `current` deletes: the other deploys' ones. */
export const staleCaches = (names, current) => names.filter((name) => name.startsWith(CACHE_PREFIX) && name !== current);

/** What a deploy caches at install besides its page files, as far as the server answers: the opening reads (the
 *  first visit made them before the worker ran), and what the previous deploy had cached on use (the model and
 *  runtime once the camera mode was opened), fetched again, so the camera mode still opens offline after an
 *  update. Old page files are not carried: the new deploy's list replaces them. */
export function fetchedAtInstall(oldUrls, origin) {
  const kept = oldUrls.filter((url) => rule({ method: "GET", url, mode: "cors" }, origin)?.onUse);
  return [...new Set([...OPENING_READS.map((path) => `${origin}${path}`), ...kept])];
}
