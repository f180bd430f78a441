// Shrinking a photo before upload, and placing boxes on it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { closeupStyle, labelRect, placeLabels, readingOrder } from "../../api/static/boxes.js";
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

const rect = (left, top, width, height) => ({ left, top, right: left + width, bottom: top + height });
const label = { width: 18, height: 16 };
const bounds = rect(0, 0, 400, 300);

test("on an upright row every label goes below its box", () => {
  const boxes = [0, 1, 2].map((n) => rect(20 + 30 * n, 100, 26, 34));
  assert.deepEqual(placeLabels(boxes, boxes.map(() => label), bounds), boxes.map(() => ["below", "centre"]));
});

test("on a slanted row no label meets another box or label", () => {
  // a row descending to the right: each box overlaps the next, so below a box lies the next one (issue 35)
  const boxes = [0, 1, 2, 3, 4].map((n) => rect(100 + 13 * n, 100 + 6 * n, 21, 23));
  const sizes = boxes.map(() => label);
  const places = placeLabels(boxes, sizes, bounds);
  assert.notDeepEqual(places[0], ["below", "centre"]);
  const overlap = (a, b) => Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
  const labels = places.map((place, i) => labelRect(boxes[i], label, place));
  labels.forEach((a, i) => {
    boxes.forEach((box, j) => assert.ok(j === i || !overlap(a, box), `label ${i} meets box ${j}`));
    labels.forEach((b, j) => assert.ok(j === i || !overlap(a, b), `label ${i} meets label ${j}`));
  });
});
