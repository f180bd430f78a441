// The shots kept to send later (outbox.js): which failures keep a shot, and what sending them does with each.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ApiError } from "../../api/static/api.js";
import { outboxOn, unreachable } from "../../api/static/outbox.js";

/** The outbox's store in memory, as IndexedDB keeps it: numbered records, oldest first. */
class MemoryStore {
  records = new Map();
  next = 1;
  async add(record) { this.records.set(this.next, record); return this.next++; }
  async all() { return [...this.records].map(([key, record]) => ({ key, ...record })); }
  async remove(key) { this.records.delete(key); }
}

const outbox = (store) => outboxOn(store, (run) => run());
const networkError = new ApiError(0, [{ code: "network", message: "no connection" }]);
const proxyPage = (status) => new ApiError(status, [{ code: "not_json", message: `HTTP ${status}` }]);
const refusal = (status, code) => new ApiError(status, [{ code, message: code }]);

test("a shot is kept when the server never answered: no connection, or a proxy's page in its place", () => {
  assert.equal(unreachable(networkError), true);
  for (const status of [502, 503, 504]) assert.equal(unreachable(proxyPage(status)), true, status);
  // the server itself answered: a refusal, or its own error (the page's Try again is for those)
  for (const error of [refusal(422, "bad_image"), refusal(413, "too_large"), refusal(503, "storage_unavailable"),
    refusal(500, "internal"), refusal(429, "busy"), proxyPage(500)]) {
    assert.equal(unreachable(error), false, error.message);
  }
});

test("kept shots are sent oldest first, each removed once the server has answered", async () => {
  const store = new MemoryStore();
  const { keepForLater, pending, sendPending } = outbox(store);
  await keepForLater("first", { name: "a.jpg" });
  await keepForLater("second", { name: "b.jpg" });
  const sent = [];
  const report = await sendPending(async (blob, meta) => { sent.push([blob, meta.name]); return { id: blob }; });
  assert.deepEqual(sent, [["first", "a.jpg"], ["second", "b.jpg"]]);
  assert.deepEqual(report, { sent: [{ meta: { name: "a.jpg" }, answer: { id: "first" } },
    { meta: { name: "b.jpg" }, answer: { id: "second" } }], refused: [], left: 0 });
  assert.deepEqual(await pending(), []);
});

test("a shot that still cannot reach the server stays, and so do the ones after it", async () => {
  const store = new MemoryStore();
  const { keepForLater, pending, sendPending } = outbox(store);
  for (const blob of ["one", "two", "three"]) await keepForLater(blob, { name: `${blob}.jpg` });
  let calls = 0;
  const report = await sendPending(async (blob) => {
    calls += 1;
    if (blob === "two") throw networkError;
    return { id: blob };
  });
  assert.equal(calls, 2); // it stops at the first failure: the server is away again
  assert.deepEqual(report.sent.map(({ answer }) => answer.id), ["one"]);
  assert.equal(report.left, 2);
  assert.deepEqual((await pending()).map(({ blob }) => blob), ["two", "three"]);
});

test("a busy or failing server keeps the shot; a refusal of the shot itself drops it and says why", async () => {
  for (const error of [refusal(503, "storage_unavailable"), refusal(429, "busy"), refusal(500, "internal")]) {
    const { keepForLater, pending, sendPending } = outbox(new MemoryStore());
    await keepForLater("shot", { name: "shot.jpg" });
    const report = await sendPending(async () => { throw error; });
    assert.deepEqual([report.left, (await pending()).length], [1, 1], error.message);
  }
  const { keepForLater, pending, sendPending } = outbox(new MemoryStore());
  await keepForLater("not a photo", { name: "bad.jpg" });
  await keepForLater("good", { name: "good.jpg" });
  const bad = refusal(422, "bad_image");
  const report = await sendPending(async (blob) => {
    if (blob === "not a photo") throw bad;
    return { id: blob };
  });
  assert.deepEqual(report.refused, [{ meta: { name: "bad.jpg" }, error: bad }]);
  assert.deepEqual(report.sent.map(({ answer }) => answer.id), ["good"]);
  assert.deepEqual(await pending(), []);
});

test("sending while a send is running joins it: each shot goes once", async () => {
  const { keepForLater, sendPending } = outbox(new MemoryStore());
  await keepForLater("shot", { name: "shot.jpg" });
  let sends = 0;
  const send = async (blob) => {
    sends += 1;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return { id: blob };
  };
  const [first, second] = await Promise.all([sendPending(send), sendPending(send)]); // `online` and a page load
  assert.equal(sends, 1);
  assert.equal(first, second);
  assert.deepEqual((await sendPending(send)).sent, []); // nothing left for a later run
});
