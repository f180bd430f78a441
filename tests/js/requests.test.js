// The hand and confirmation requests the page builds from its state.
import assert from "node:assert/strict";
import { test } from "node:test";

import { confirmationRequest, handRequest, handSummary, meldRequest } from "../../api/static/requests.js";
import { addTile, createState, loadRecognition } from "../../api/static/state.js";

const cases = [
  [["back", "5p", "back", "5p"], { kind: "kong_concealed" }, { kind: "kong", tiles: "5555p", concealed: true }],
  [["7z", "7z", "7z", "7z"], { kind: "kong", fed_by: "3z" }, { kind: "kong", tiles: "7777z", fed_by: "3z" }],
  [["2s", "2s", "2s", "2s"], { kind: "kong_added" }, { kind: "kong", tiles: "2222s", added: true }],
  [["9m", "7m", "8m"], { kind: "chow" }, { kind: "chow", tiles: "789m" }],
];
for (const [codes, meld, expected] of cases) {
  test(`meld ${meld.kind} of ${codes.join(",")}`, () => assert.deepEqual(meldRequest(codes, meld), expected));
}

test("the hand request and the confirmation: every placed tile with a box, clamped to the photo", () => {
  const state = createState();
  loadRecognition(state, {
    id: "r", image: { width: 100, height: 50 },
    tiles: [{ code: "1m", box: [-3, 0, 10, 60] }, { code: "2m", box: [10, 0, 20, 10] }, { code: "1f", box: [20, 0, 30, 10] }],
    groups: [], hand: { concealed: "12m", flowers: "1f", winning_tile: "2m" },
  });
  state.concealed.push(addTile(state, "3m")); // no box: in the hand, not in the label
  assert.deepEqual(handRequest(state), { concealed: "123m", melds: [], flowers: "1f", winning_tile: "2m" });
  assert.deepEqual(confirmationRequest(state).tiles, [
    { code: "1m", box: [0, 0, 10, 50] }, { code: "2m", box: [10, 0, 20, 10] }, { code: "1f", box: [20, 0, 30, 10] }]);
  assert.equal(handSummary(handRequest(state)), "123m · 花 1f · winning 2m");
});
