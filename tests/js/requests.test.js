// The hand and confirmation requests the page builds from its state.
import assert from "node:assert/strict";
import { test } from "node:test";

import "./vocabulary.js";
import { confirmationRequest, handRequest, meldRequest } from "../../api/static/requests.js";
import { addTile, createState, loadRecognition, removeTile } from "../../api/static/state.js";

const cases = [
  [["back", "5p", "back", "5p"], { kind: "kong_concealed" }, { kind: "kong", tiles: "5555p", concealed: true }],
  [["back", "back", "back", "back"], { kind: "kong_concealed", face: "7z" }, { kind: "kong", tiles: "7777z", concealed: true }],
  [["back", "back", "back", "back"], { kind: "kong_concealed" }, { kind: "kong", tiles: "", concealed: true }],
  [["7z", "7z", "7z", "7z"], { kind: "kong", fed_by: "3z" }, { kind: "kong", tiles: "7777z", fed_by: "3z" }],
  [["2s", "2s", "2s", "2s"], { kind: "kong_added" }, { kind: "kong", tiles: "2222s", added: true }],
  [["9m", "7m", "8m"], { kind: "chow" }, { kind: "chow", tiles: "789m" }],
];
for (const [codes, meld, expected] of cases) {
  test(`meld ${meld.kind} of ${codes.join(",")}`, () => assert.deepEqual(meldRequest(codes, meld), expected));
}

function loaded() {
  const state = createState();
  loadRecognition(state, {
    id: "r", image: { width: 100, height: 50 },
    tiles: [{ code: "1m", box: [-3, 0, 10, 60] }, { code: "2m", box: [10, 0, 20, 10] }, { code: "1f", box: [20, 0, 30, 10] },
      { code: "9p", box: [80, 0, 90, 10] }],
    hand_tiles: { concealed: [0, 1], flowers: [2], loose: [3] }, hand: { winning_tile: "2m" },
  });
  return state;
}

test("the hand request, with and without its flowers", () => {
  const state = loaded();
  state.concealed.push(addTile(state, "3m")); // no box: in the hand, not in the label
  assert.deepEqual(handRequest(state), { concealed: "123m", melds: [], flowers: "1f", winning_tile: "2m" });
  assert.equal(handRequest(state, { withFlowers: false }).flowers, "");
});

test("the confirmation labels every tile with a box, in the hand or not, and says where each sits", () => {
  const state = loaded();
  removeTile(state, 0); // out of the hand: still labelled
  const body = confirmationRequest(state, { ruleset: "jipinghu", context: { win: "self_draw" } });
  assert.deepEqual(body.tiles, [
    { code: "1m", box: [0, 0, 10, 50], detection: 0 }, { code: "2m", box: [10, 0, 20, 10], detection: 1 },
    { code: "1f", box: [20, 0, 30, 10], detection: 2 }, { code: "9p", box: [80, 0, 90, 10], detection: 3 }]);
  assert.deepEqual(body.hand_tiles, { concealed: [1], melds: [], flowers: [2], loose: [3, 0], winning: 1 });
  assert.deepEqual([body.ruleset, body.context], ["jipinghu", { win: "self_draw" }]);
  assert.equal("hand" in body, false); // the server derives it from hand_tiles (issue 35)
});

test("a tile added without a box has a place in the confirmation's tiles, for hand_tiles to name it", () => {
  const state = loaded();
  const added = addTile(state, "3m");
  state.concealed.push(added);
  state.winning = added;
  const body = confirmationRequest(state);
  assert.deepEqual(body.tiles.at(-1), { code: "3m", box: null });
  assert.deepEqual(body.hand_tiles.concealed, [0, 1, 4]);
  assert.equal(body.hand_tiles.winning, 4);
});
