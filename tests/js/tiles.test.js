// Tile notation on the page.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ALL_CODES, notation, parseNotation } from "../../api/static/tiles.js";

test("43 codes: the detector's classes", () => assert.equal(ALL_CODES.length, 43));

test("notation sorts, groups by suit and leaves backs out; parsing inverts it", () => {
  assert.equal(notation(["1z", "3m", "back", "1m", "2f"]), "13m1z2f");
  assert.deepEqual(parseNotation("13m1z2f"), ["1m", "3m", "1z", "2f"]);
  assert.deepEqual(parseNotation("1x2m"), ["1m", "2m"]);
});
