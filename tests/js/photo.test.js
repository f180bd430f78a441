// Shrinking a photo before upload, and placing boxes on it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { closeupStyle, readingOrder } from "../../api/static/boxes.js";
import { fitSize } from "../../api/static/photo.js";

const sizes = [
  [[12000, 9000], { width: 2000, height: 1500 }], // a 108 MP camera mode
  [[3000, 4000], { width: 1500, height: 2000 }],
  [[1600, 1200], { width: 1600, height: 1200 }], // small enough: never enlarged
  [[20000, 1], { width: 2000, height: 1 }],
];
for (const [[width, height], expected] of sizes) {
  test(`${width}×${height} is sent as ${expected.width}×${expected.height}`, () => assert.deepEqual(fitSize(width, height), expected));
}

test("keyboard order reads the photo: rows top to bottom, each left to right", () => {
  const tile = (id, x, y) => ({ id, box: [x, y, x + 10, y + 14] });
  const order = readingOrder([tile(0, 50, 2), tile(1, 0, 40), tile(2, 20, 0), tile(3, 30, 41)]);
  assert.deepEqual(order.map((t) => t.id), [2, 0, 1, 3]);
});

test("a close-up shows exactly the tile's box", () => {
  assert.deepEqual(closeupStyle([100, 50, 150, 120], { width: 1000, height: 700 }),
    { backgroundSize: "2000% 1000%", backgroundPosition: `${(100 * 100) / 950}% ${(100 * 50) / 630}%` });
});
