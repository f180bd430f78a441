// A hand typed in notation takes the hand's place (issue 35 item 14); the server parses it (POST /v1/notation).
import assert from "node:assert/strict";
import { test } from "node:test";

import { handRequest } from "../../api/static/requests.js";
import { addTile, createState, tileCount, typeHand, undoClear } from "../../api/static/state.js";

const TYPED = { // POST /v1/notation's answer for "123m456p789s 11z [555s] (1111p)" less two standing tiles
  concealed: ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "1z", "1z"],
  melds: [{ kind: "pung", tiles: ["5s", "5s", "5s"], concealed: false, added: false, fed_by: null },
    { kind: "kong", tiles: ["1p", "1p", "1p", "1p"], concealed: true, added: false, fed_by: null }],
};

test("typed tiles become the hand, melds with their kinds, the photo's tiles go to the tray and Undo brings them back", () => {
  const state = createState();
  const photoTile = addTile(state, "9m", [0, 0, 10, 10]);
  state.concealed.push(photoTile);
  typeHand(state, TYPED);
  assert.equal(handRequest(state).concealed, "123m456p78s11z");
  assert.deepEqual(handRequest(state).melds, [{ kind: "pung", tiles: "555s" }, { kind: "kong", tiles: "1111p", concealed: true }]);
  assert.equal(state.tiles.get(state.winning).code, "1z");
  assert.deepEqual(state.loose, [photoTile]);
  assert.deepEqual(tileCount(state), { count: 16, needed: 14, winning: true });
  assert.ok(undoClear(state));
  assert.deepEqual(state.concealed, [photoTile]);
});
