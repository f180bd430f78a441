// The page's state changes, without a browser.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import {
  addTile, applySuggestion, clearHand, createState, deleteTile, dissolveMeld, isApplied, loadRecognition, moveTile,
  newMeld, page, placedIds, removeTile, saveWarning, setCode, setWinning, tileCount, undoClear,
} from "../../api/static/state.js";

const box = (index) => [index * 10, 0, index * 10 + 9, 12];

function recognition(codes, handTiles, hand = {}, extra = {}) {
  return { id: "r", image: { width: 400, height: 50 }, tiles: codes.map((code, index) => ({ code, box: box(index), confidence: 0.9, alternatives: [] })),
    hand_tiles: handTiles, hand, ...extra };
}

const HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z", "2z"];

test("tiles are placed by their detection index, not matched by code", () => {
  const state = createState();
  // two 1m detections: the hand names the second one; the first lies apart on the table
  loadRecognition(state, recognition(["1m", "1m", "2m", "back", "back", "back", "back"],
    { concealed: [1, 2], melds: [{ kind: "kong", concealed: true, tiles: [3, 4, 5, 6] }], flowers: [], loose: [0] },
    { winning_tile: "1m" }));
  assert.deepEqual(state.concealed, [1, 2]);
  assert.deepEqual(state.loose, [0]);
  assert.deepEqual(state.melds.map((meld) => [meld.kind, meld.tiles]), [["kong_concealed", [3, 4, 5, 6]]]);
  assert.equal(state.winning, 1);
});

test("a detection hand_tiles leaves out is kept in the tray, never lost", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "2f", "9s"], { concealed: [0] }));
  assert.deepEqual(state.loose, [1, 2]);
});

test("a back is never the winning tile", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "back"], { concealed: [0, 1] }, { winning_tile: "back" }));
  assert.equal(state.winning, 0);
  setWinning(state, 1);
  assert.equal(state.winning, 0);
  removeTile(state, 0);
  assert.equal(state.winning, null); // only a back stands: no winning tile, and none is invented
});

test("out of the hand, a tile on the photo goes to the tray and stays in the label; not-a-tile deletes it", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "2m", "3m"], { concealed: [0, 1, 2] }, { winning_tile: "3m" }));
  removeTile(state, 2);
  assert.deepEqual([state.concealed, state.loose, state.winning], [[0, 1], [2], 1]);
  assert.ok(state.tiles.has(2));
  deleteTile(state, 1);
  assert.ok(!state.tiles.has(1));
  const added = addTile(state, "5m");
  moveTile(state, added, state.concealed);
  removeTile(state, added); // no box: nothing to label, so it is gone
  assert.ok(!state.tiles.has(added));
});

test("moving and dissolving keep the winning tile on a standing tile", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "2m", "3m"], { concealed: [0, 1, 2] }, { winning_tile: "3m" }));
  moveTile(state, 2, newMeld(state).tiles);
  assert.equal(state.winning, 1);
  dissolveMeld(state, 0);
  assert.deepEqual(state.concealed, [0, 1, 2]);
  assert.deepEqual(placedIds(state), [0, 1, 2]);
});

test("clear moves the hand to the tray and undo brings it back as it was", () => {
  const state = createState();
  loadRecognition(state, recognition(HAND, { concealed: [...HAND.keys()] }, { winning_tile: "2z" }));
  const added = addTile(state, "1f");
  state.flowers.push(added);
  clearHand(state);
  assert.deepEqual([state.concealed, state.flowers, state.winning], [[], [], null]);
  assert.equal(state.loose.length, 14);
  assert.ok(undoClear(state));
  assert.deepEqual([state.concealed, state.flowers, state.loose, state.winning], [[...HAND.keys()], [added], [], 13]);
  assert.equal(state.tiles.get(added).code, "1f");
  assert.equal(undoClear(state), false);
});

test("any change after clear ends its undo", () => {
  const state = createState();
  loadRecognition(state, recognition(HAND, { concealed: [...HAND.keys()] }));
  clearHand(state);
  setCode(state, 0, "9m");
  assert.equal(undoClear(state), false);
});

test("the tile count: standing face tiles plus 3 per meld", () => {
  const state = createState();
  loadRecognition(state, recognition([...HAND.slice(0, 11), "back", "5p", "5p", "back"],
    { concealed: [...Array(11).keys()], melds: [{ kind: "kong", concealed: true, tiles: [11, 12, 13, 14] }] }));
  assert.deepEqual(tileCount(state), { count: 14, needed: 14, winning: true });
});

test("saving far fewer tiles than the photo holds, or no hand, needs a second thought", () => {
  const state = createState();
  loadRecognition(state, recognition(HAND, { concealed: [...HAND.keys()] }));
  assert.equal(saveWarning(state), null);
  clearHand(state);
  assert.equal(saveWarning(state).key, "confirm_no_hand");
  undoClear(state);
  for (const id of [...HAND.keys()].slice(0, 8)) deleteTile(state, id);
  assert.deepEqual(saveWarning(state), { key: "confirm_few_tiles", labelled: 6, detected: 14 });
});

test("a saved confirmation is restored: its labels, their places and its edits, not the machine's guess", () => {
  const state = createState();
  const saved = { tiles: [{ code: "3m", box: box(1) }, { code: "1f", box: [300, 0, 309, 12] }],
    hand: { concealed: "3m", flowers: "1f", winning_tile: "3m", melds: [] },
    hand_tiles: { concealed: [0], flowers: [1], melds: [], loose: [] } };
  loadRecognition(state, recognition(["1m", "3s"], { concealed: [0, 1] }, {}, { confirmation: saved }));
  assert.deepEqual([...state.tiles.values()].map((tile) => [tile.code, tile.edited]), [["3m", true], ["1f", true]]);
  assert.deepEqual([state.concealed, state.flowers, state.winning], [[0], [1], 0]);
});

test("a saved confirmation's tiles are placed by index, one without a box too, never matched by box", () => {
  // issue 35: the page matched saved tiles to detections by box, and a tile added without one was lost on reload
  const state = createState();
  const alternatives = [{ code: "3m", p: 0.3 }];
  const read = recognition(["1m", "3s"], { concealed: [0, 1] });
  read.tiles[1].alternatives = alternatives;
  const saved = { tiles: [{ code: "3m", box: [0, 0, 9, 12], detection: 1 }, { code: "3m", box: null }],
    hand: { concealed: "33m", winning_tile: "3m", melds: [] },
    hand_tiles: { concealed: [1, 0], melds: [], flowers: [], loose: [], winning: 1 } }; // by code: the last 3m, 0
  loadRecognition(state, { ...read, confirmation: saved });
  assert.deepEqual([...state.tiles.values()].map((tile) => [tile.code, tile.box, tile.alternatives]),
    [["3m", [0, 0, 9, 12], alternatives], ["3m", null, []]]);
  assert.deepEqual([state.concealed, state.loose, state.winning], [[1, 0], [], 1]);
});

test("suggestions apply their changes and then count as applied", () => {
  const state = createState();
  loadRecognition(state, recognition(["1m", "3s"], { concealed: [0, 1] }));
  const suggestion = { changes: [{ tile: 1, from: "3s", to: "3m" }] };
  assert.equal(isApplied(state, suggestion), false);
  applySuggestion(state, suggestion);
  assert.equal(state.tiles.get(1).code, "3m");
  assert.equal(isApplied(state, suggestion), true);
});

test("the page's own state lives here, beside the hand's: app.js keeps none at module level", () => {
  const app = readFileSync(new URL("../../api/static/app.js", import.meta.url), "utf8");
  assert.deepEqual(app.match(/^let \w+/gm), null);
  assert.equal(page.photoToken, 0);
  assert.equal(page.unsaved, false);
});
