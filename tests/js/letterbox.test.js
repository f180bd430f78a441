// The localiser's input and output in the page (api/static/live/letterbox.js), on made-up frames and outputs; the
// real model on real photos, against the Python, is tests/js/localiser-python.test.js.
import assert from "node:assert/strict";
import { test } from "node:test";

import { decodeYolo, detections, frameTensor, letterboxGeometry, nms, PAD_VALUE, resizeTaps, unletterbox }
  from "../../api/static/live/letterbox.js";

test("a 4:3 frame fills the square's width, centred between grey bands", () => {
  assert.deepEqual(letterboxGeometry(1600, 1200, 416), { size: 416, scale: 0.26, newWidth: 416, newHeight: 312,
                                                         left: 0, top: 52 });
  assert.deepEqual(letterboxGeometry(720, 1280, 416), { size: 416, scale: 0.325, newWidth: 234, newHeight: 416,
                                                        left: 91, top: 0 });
  // halves round to even, as Python's round() does: 5 × 0.5 = 2.5 → 2
  assert.equal(letterboxGeometry(5, 832, 416).newWidth, 2);
});

test("halving takes each pair of pixels at equal weights; keeping the size takes each pixel whole", () => {
  const half = resizeTaps(8, 4);
  assert.deepEqual([...half.first], [0, 2, 4, 6]);
  assert.deepEqual([...half.weightFirst], [1024, 1024, 1024, 1024]);
  const same = resizeTaps(3, 3);
  assert.deepEqual([...same.first], [0, 1, 2]);
  assert.deepEqual([...same.weightFirst], [2048, 2048, 2048]);
});

function frame(width, height, pixel) {
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([...pixel(x, y), 255], (y * width + x) * 4);
  return { data, width, height };
}

test("the tensor is RGB planes in [0, 1], the frame inside grey padding", () => {
  const { tensor, box } = frameTensor(frame(40, 20, () => [255, 0, 51]), 8);
  assert.deepEqual(box, { size: 8, scale: 0.2, newWidth: 8, newHeight: 4, left: 0, top: 2 });
  const at = (c, y, x) => tensor[c * 64 + y * 8 + x];
  assert.deepEqual([at(0, 3, 5), at(1, 3, 5), at(2, 3, 5)], [1, 0, Math.fround(51 / 255)]);
  assert.equal(at(0, 0, 0), Math.fround(PAD_VALUE / 255));
  assert.equal(at(2, 7, 7), Math.fround(PAD_VALUE / 255));
});

test("a left-to-right ramp stays a ramp, each value between its source pixels'", () => {
  const { tensor } = frameTensor(frame(16, 16, (x) => [x * 16, 0, 0]), 8);
  const row = Array.from(tensor.slice(3 * 8, 4 * 8), (v) => Math.round(v * 255));
  assert.deepEqual(row, [8, 40, 72, 104, 136, 168, 200, 232]);
});

// A detect head output for anchors given as [cx, cy, w, h, face, back].
function output(anchors) {
  const data = new Float32Array(6 * anchors.length);
  anchors.forEach((values, i) => values.forEach((value, row) => { data[row * anchors.length + i] = value; }));
  return { data, dims: [1, 6, anchors.length] };
}

test("anchors are kept by their best class score at the threshold, as xyxy boxes", () => {
  const { data, dims } = output([[50, 50, 20, 10, 0.9, 0.1], [10, 10, 4, 4, 0.2, 0.55], [30, 30, 4, 4, 0.5, 0.54]]);
  assert.deepEqual(decodeYolo(data, dims, 0.55).map((b) => [b.x1, b.y1, b.x2, b.y2, b.classIndex]),
                   [[40, 45, 60, 55, 0], [8, 8, 12, 12, 1]]);
});

test("NMS keeps the best of overlapping boxes across classes, and boxes that overlap at the threshold", () => {
  const box = (x1, score, y2 = 10) => ({ x1, y1: 0, x2: x1 + 10, y2, score });
  // the last lies over the third, twice its area: IoU exactly 0.5
  const kept = nms([box(0, 0.6), box(1, 0.9), box(20, 0.7), box(20, 0.65, 20)], 0.5);
  assert.deepEqual(kept.map((b) => b.score), [0.9, 0.7, 0.65]);
  assert.deepEqual(nms([box(20, 0.7), box(20, 0.65, 19)], 0.5).map((b) => b.score), [0.7]);
});

test("boxes map back to the frame's pixels, clipped to it", () => {
  const geometry = letterboxGeometry(1600, 1200, 416);
  assert.deepEqual(unletterbox({ x1: -4, y1: 52, x2: 104, y2: 130 }, geometry, 1600, 1200),
                   { x1: 0, y1: 0, x2: 400, y2: 300 });
  const { data, dims } = output([[52, 104, 26, 26, 0.3, 0.8]]);
  assert.deepEqual(detections(data, dims, geometry, { width: 1600, height: 1200 },
                              { conf: 0.55, nmsIou: 0.5, classes: ["face", "back"] }),
                   [{ x1: 150, y1: 150, x2: 250, y2: 250, score: Math.fround(0.8), kind: "back" }]);
});
