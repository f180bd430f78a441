// A photo's unsaved fixes kept on the device (issue 35 item 2), without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import { applyDraft, draftOf, dropDraft, keepDraft, readDraft } from "../../api/static/drafts.js";
import { addTile, createState, loadRecognition, moveTile, newMeld, setCode } from "../../api/static/state.js";

const CODES = ["1m", "2m", "3s", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"];
const recognition = () => ({
  id: "a".repeat(32), image: { width: 400, height: 50 },
  tiles: CODES.map((code, index) => ({ code, box: [index * 10, 0, index * 10 + 9, 12], confidence: 0.9, alternatives: [] })),
  hand_tiles: { concealed: CODES.map((_, index) => index), melds: [], flowers: [], loose: [] },
  hand: { winning_tile: "2z" },
});

class MemoryStorage {
  items = new Map();
  setItem(key, value) { this.items.set(key, String(value)); }
  getItem(key) { return this.items.get(key) ?? null; }
  removeItem(key) { this.items.delete(key); }
}

test("a draft brings back every fix, where each tile sits, the ETag read and the form", () => {
  const edited = createState();
  loadRecognition(edited, recognition());
  edited.etag = '"v1"';
  setCode(edited, 2, "3m");
  moveTile(edited, addTile(edited, "1f"), edited.flowers);
  moveTile(edited, 0, newMeld(edited).tiles);
  const choices = { ruleset: "tuidaohu", context: { win: "self_draw", seat_wind: "2z" } };
  const storage = new MemoryStorage();
  assert.equal(keepDraft(storage, "a".repeat(32), draftOf(edited, choices)), true);

  const reopened = createState();
  loadRecognition(reopened, recognition()); // the machine's reading, as the server gives it again
  assert.deepEqual(applyDraft(reopened, readDraft(storage, "a".repeat(32))), choices);
  for (const key of ["concealed", "flowers", "melds", "loose", "winning", "nextId", "etag"]) {
    assert.deepEqual(reopened[key], edited[key], key);
  }
  assert.deepEqual([...reopened.tiles.values()], [...edited.tiles.values()]);
  assert.equal(reopened.tiles.get(2).code, "3m");

  dropDraft(storage, "a".repeat(32));
  assert.equal(readDraft(storage, "a".repeat(32)), null);
});

test("a box still being drawn is not kept, and a device that refuses says so", () => {
  const state = createState();
  loadRecognition(state, recognition());
  const drawing = addTile(state, "back");
  state.tiles.get(drawing).pending = true;
  moveTile(state, drawing, state.flowers);
  const draft = draftOf(state, {});
  assert.equal(draft.tiles.some((tile) => tile.id === drawing), false);
  assert.deepEqual(draft.flowers, []);
  const full = { setItem() { throw new Error("QuotaExceededError"); } };
  assert.equal(keepDraft(full, "b".repeat(32), draft), false);
  assert.equal(readDraft({ getItem: () => "{not json" }, "c".repeat(32)), null);
});
