// Tile names, faces and notation on the page: all from the API's vocabulary.
import assert from "node:assert/strict";
import { test } from "node:test";

import { VOCABULARY } from "./vocabulary.js";
import { setLanguage } from "../../api/static/i18n.js";
import { allCodes, codesOf, faceOf, notation, seatName, sortKey, tileName } from "../../api/static/tiles.js";

test("the codes are the vocabulary's, in its order", () => assert.deepEqual(allCodes(), VOCABULARY.map((tile) => tile.code)));

test("names and faces come from the vocabulary: 东 and 兰 as scoring/tiles.py writes them", () => {
  setLanguage("en");
  assert.equal(tileName("1z"), "东 East");
  assert.equal(seatName("1z"), "东 East (dealer)");
  assert.deepEqual(faceOf("2f"), ["兰", "2"]);
  assert.deepEqual(faceOf("5m"), ["五", "万"]);
  assert.deepEqual(faceOf("7p"), ["7", "筒"]);
  assert.equal(tileName("back"), "Face-down");
  setLanguage("zh-Hans");
  assert.equal(tileName("5m"), "五万");
  assert.equal(tileName("back"), "牌背");
  setLanguage("en");
});

test("notation sorts, groups by suit and leaves backs out", () => {
  assert.equal(notation(["1z", "3m", "back", "1m", "2f"]), "13m1z2f");
});

test("compact notation reads back as codes in its order", () => {
  assert.deepEqual(codesOf("15m39p9s2z"), ["1m", "5m", "3p", "9p", "9s", "2z"]);
  assert.deepEqual(codesOf(notation(["3m", "1m", "7z", "2f"])), ["1m", "3m", "7z", "2f"].sort((a, b) => sortKey(a) - sortKey(b)));
  assert.deepEqual(codesOf(""), []);
});
