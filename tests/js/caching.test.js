// What the service worker caches and how (caching.js), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { cacheName, cacheable, fetchedAtInstall, rule, staleCaches } from "../../api/static/caching.js";

const ORIGIN = "http://127.0.0.1:8000";
const get = (path, mode = "cors") => rule({ method: "GET", url: `${ORIGIN}${path}`, mode }, ORIGIN);

test("the page and its files are answered from the cache, whatever the page's query", () => {
  assert.deepEqual(get("/", "navigate"), { strategy: "cache-first", key: `${ORIGIN}/`, onUse: false });
  assert.deepEqual(get("/?game=abc", "navigate"), { strategy: "cache-first", key: `${ORIGIN}/`, onUse: false });
  assert.deepEqual(get("/static/app.js"), { strategy: "cache-first", key: `${ORIGIN}/static/app.js`, onUse: false });
});

test("opening the page with ?token= reaches the server, which sets the access cookie", () => {
  assert.equal(get("/?token=secret", "navigate"), null);
});

test("the model's files and the runtime are cached when first used; `active` is asked of the server first", () => {
  assert.deepEqual(get("/static/vendor/onnxruntime-web/ort-wasm-simd-threaded.wasm"),
    { strategy: "cache-first", key: `${ORIGIN}/static/vendor/onnxruntime-web/ort-wasm-simd-threaded.wasm`, onUse: true });
  assert.deepEqual(get("/v1/models/0f3a9c/files/localiser.onnx"),
    { strategy: "cache-first", key: `${ORIGIN}/v1/models/0f3a9c/files/localiser.onnx`, onUse: true });
  // the shipped models change with a release, and `active` with a switch: asked of the server first
  assert.equal(get("/v1/models/base/files/localiser.onnx").strategy, "network-first");
  assert.equal(get("/v1/models/active/files/vision.json").strategy, "network-first");
});

test("a HEAD of something the worker caches is answered from its cache; of anything else, left to the browser", () => {
  const head = (path) => rule({ method: "HEAD", url: `${ORIGIN}${path}`, mode: "cors" }, ORIGIN);
  assert.deepEqual(head("/static/vendor/onnxruntime-web/ort.wasm.min.mjs"),
    { strategy: "head", key: `${ORIGIN}/static/vendor/onnxruntime-web/ort.wasm.min.mjs`, onUse: true });
  assert.equal(head("/v1/recognitions/0123/image"), null);
});

test("the reads the page opens with are fresh when the server answers, cached for when it does not", () => {
  for (const path of ["/v1/rulesets", "/v1/tiles", "/v1/models"]) {
    assert.deepEqual(get(path), { strategy: "network-first", key: `${ORIGIN}${path}`, onUse: true }, path);
  }
});

test("writes, photos and their readings, games, other paths and other sites are left to the browser", () => {
  for (const method of ["POST", "PUT", "DELETE"]) {
    assert.equal(rule({ method, url: `${ORIGIN}/v1/recognitions`, mode: "cors" }, ORIGIN), null, method);
    assert.equal(rule({ method, url: `${ORIGIN}/static/app.js`, mode: "cors" }, ORIGIN), null, method);
  }
  for (const path of ["/v1/recognitions/0123/image", "/v1/recognitions/0123", "/v1/games/abc/events",
    "/v1/models/adapt/job1", "/v1/datasets/export", "/docs", "/metrics", "/", "/sw.js"]) {
    assert.equal(get(path), null, path);
  }
  assert.equal(rule({ method: "GET", url: "https://cdn.example.org/static/app.js", mode: "cors" }, ORIGIN), null);
});

test("only a whole same-origin 200 is kept", () => {
  assert.equal(cacheable({ status: 200, type: "basic" }), true);
  for (const answer of [{ status: 206, type: "basic" }, { status: 404, type: "basic" }, { status: 503, type: "basic" },
    { status: 0, type: "opaqueredirect" }, { status: 200, type: "cors" }]) {
    assert.equal(cacheable(answer), false, JSON.stringify(answer));
  }
});

test("an activated deploy drops the other deploys' caches, and nobody else's", () => {
  const current = cacheName("new");
  assert.deepEqual(staleCaches(["fanshot-old", current, "another-app"], current), ["fanshot-old"]);
});

test("install fetches the opening reads and carries over what was cached on use, not the old page files", () => {
  const old = ["/", "/static/app.js", "/static/gone.js", "/v1/models/base/files/localiser.onnx",
    "/static/vendor/onnxruntime-web/ort.wasm.min.mjs", "/v1/rulesets", "/v1/models/active/files/vision.json"]
    .map((path) => `${ORIGIN}${path}`);
  assert.deepEqual(fetchedAtInstall(old, ORIGIN), ["/v1/rulesets", "/v1/tiles", "/v1/models",
    "/v1/models/base/files/localiser.onnx", "/static/vendor/onnxruntime-web/ort.wasm.min.mjs",
    "/v1/models/active/files/vision.json"].map((path) => `${ORIGIN}${path}`));
  assert.deepEqual(fetchedAtInstall([], ORIGIN), ["/v1/rulesets", "/v1/tiles", "/v1/models"].map((path) => `${ORIGIN}${path}`));
});
