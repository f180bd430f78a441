// Where the page loads onnxruntime-web from: its own npm copy when the server has it, else jsDelivr at the version
// package.json pins (the two cannot drift).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { CDN_RUNTIME, LOCAL_RUNTIME, runtimeBase, WASM_MODULE } from "../../api/static/live/runtime.js";

const pinned = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url))).dependencies["onnxruntime-web"];

test("the CDN copy is the version package.json pins, exactly", () => {
  assert.match(pinned, /^\d+\.\d+\.\d+$/);
  assert.equal(CDN_RUNTIME, `https://cdn.jsdelivr.net/npm/onnxruntime-web@${pinned}/dist/`);
});

test("the npm copy the server has is taken", async () => {
  const asked = [];
  const base = await runtimeBase(async (url, options) => (asked.push([url, options.method]), { ok: true }));
  assert.equal(base, LOCAL_RUNTIME);
  assert.deepEqual(asked, [[LOCAL_RUNTIME + WASM_MODULE, "HEAD"]]);
});

test("without it, or without an answer, the CDN's", async () => {
  assert.equal(await runtimeBase(async () => ({ ok: false, status: 404 })), CDN_RUNTIME);
  assert.equal(await runtimeBase(async () => { throw new TypeError("Failed to fetch"); }), CDN_RUNTIME);
});
