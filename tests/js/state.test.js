// The page's state changes, without a browser.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  addTile, applySuggestion, clearHand, createState, dissolveMeld, isApplied, loadRecognition,
  moveTile, newMeld, placedIds, removeTile,
} from "../../api/static/state.js";

const box = (index) => [index * 10, 0, index * 10 + 9, 12];

function recognition(codes, groups, hand) {
  return { id: "r", image: { width: 200, height: 50 }, tiles: codes.map((code, index) => ({ code, box: box(index), confidence: 0.9 })), groups, hand };
}

test("a recognition's proposed hand takes its own detections, a concealed kong its backs", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "1m", "1m", "back", "5p", "back", "5p", "1f"],
    [{ kind: "concealed", tiles: [0, 1, 2] }, { kind: "meld", tiles: [3, 4, 5, 6] }, { kind: "flowers", tiles: [7] }],
    { concealed: "111m", melds: [{ kind: "kong", tiles: "5555p", concealed: true }], flowers: "1f", winning_tile: "1m" }));
  assert.deepEqual(state.concealed, [0, 1, 2]);
  assert.deepEqual(state.melds.map((meld) => [meld.kind, meld.tiles]), [["kong_concealed", [4, 6, 3, 5]]]);
  assert.deepEqual(state.flowers, [7]);
  assert.equal(state.winning, 2);
});

test("detections the hand leaves out stay as standing tiles, flowers as flowers", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "2f", "9s"], [], { concealed: "1m", melds: [], flowers: "" }));
  assert.deepEqual(state.concealed, [0, 2]);
  assert.deepEqual(state.flowers, [1]);
});

test("moving, removing and dissolving keep the winning tile on a standing tile", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "2m", "3m"], [], { concealed: "123m", winning_tile: "3m" }));
  assert.equal(state.winning, 2);
  moveTile(state, 2, newMeld(state).tiles);
  assert.equal(state.winning, 1);
  removeTile(state, 1);
  assert.deepEqual(state.concealed, [0]);
  assert.equal(state.winning, 0);
  dissolveMeld(state, 0);
  assert.deepEqual(state.concealed, [0, 2]);
  assert.deepEqual([...placedIds(state)], [0, 2]);
});

test("added tiles get ids apart from the detections' indices, from scratch on each recognition", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m"], [], { concealed: "1m" }));
  const first = addTile(state, "2m");
  assert.ok(first >= 100000);
  loadRecognition(state, recognition(["1m"], [], { concealed: "1m" }));
  assert.equal(addTile(state, "2m"), first);
});

test("clear empties the hand", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m"], [], { concealed: "1m" }));
  clearHand(state);
  assert.deepEqual([state.concealed, state.melds, state.flowers, state.winning], [[], [], [], null]);
});

test("suggestions apply their changes and then count as applied", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "3s"], [], { concealed: "1m3s" }));
  const suggestion = { changes: [{ tile: 1, from: "3s", to: "3m" }] };
  assert.equal(isApplied(state, suggestion), false);
  applySuggestion(state, suggestion);
  assert.equal(state.tiles.get(1).code, "3m");
  assert.equal(state.tiles.get(1).edited, true);
  assert.equal(isApplied(state, suggestion), true);
});
