// Tile names, faces and notation on the page: all from the API's vocabulary.
import assert from "node:assert/strict";
import { test } from "node:test";

import { VOCABULARY } from "./vocabulary.js";
import { setLanguage } from "../../api/static/i18n.js";
import { allCodes, faceOf, notation, seatName, tileName } from "../../api/static/tiles.js";

test("the codes are the vocabulary's, in its order", () => assert.deepEqual(allCodes(), VOCABULARY.map((tile) => tile.code)));

test("names and faces come from the vocabulary: 东 and 兰 as scoring/tiles.py writes them", () => {
  setLanguage("en");
  assert.equal(tileName("1z"), "东 East");
  assert.equal(seatName("1z"), "东 East (dealer)");
  assert.deepEqual(faceOf("2f"), ["兰", "2"]);
  assert.deepEqual(faceOf("5m"), ["五", "万"]);
  assert.deepEqual(faceOf("7p"), ["7", "筒"]);
  assert.equal(tileName("back"), "Face-down");
  setLanguage("zh");
  assert.equal(tileName("5m"), "五万");
  assert.equal(tileName("back"), "牌背");
  setLanguage("en");
});

test("notation sorts, groups by suit and leaves backs out", () => {
  assert.equal(notation(["1z", "3m", "back", "1m", "2f"]), "13m1z2f");
});
