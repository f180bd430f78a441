// The live viewfinder's framing guide and the shot it sends (issue 39), with the shipped vision.json's thresholds.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { LANGUAGES, setLanguage, t } from "../../api/static/i18n.js";
import { cutAtEdge, detail, frameStats, guide, lumaOf, shift } from "../../api/static/live/guide.js";
import { scaleBoxes, shotRegion } from "../../api/static/live/shot.js";

const LIVE = JSON.parse(readFileSync(new URL("../../models/vision.json", import.meta.url))).recogniser.live;
const WIDTH = 1280;
const HEIGHT = 720;

/** A row of `n` tiles `side` px wide across the middle of the frame, starting at `left`. */
const row = (n, side = 60, left = 200) => Array.from({ length: n }, (_, i) => ({
  x1: left + i * side, y1: 300, x2: left + (i + 1) * side - 2, y2: 300 + 1.35 * side, score: 0.9, kind: "face",
}));
const frame = (t, boxes, overrides = {}) => ({ t, boxes, width: WIDTH, height: HEIGHT, luma: 120, sharpness: 500, scale: 1, ...overrides });
/** Frames every 100 ms for `ms`, each with `boxes(i)`. */
const held = (ms, boxes, overrides) => Array.from({ length: ms / 100 + 1 }, (_, i) => frame(i * 100, boxes(i), overrides));

const cases = [
  ["no frame yet", [], { state: "none", count: 0, cut: 0, ready: false }],
  ["no tile in view", held(1500, () => []), { state: "none", count: 0, cut: 0, ready: false }],
  ["14 tiles held still for over a second", held(1200, () => row(14)), { state: "steady", count: 14, cut: 0, ready: true }],
  ["14 tiles, but only for half a second", held(500, () => row(14)), { state: "steady", count: 14, cut: 0, ready: false }],
  ["the count wobbles by one: still steady", held(1200, (i) => row(i % 2 ? 13 : 14)), { state: "steady", count: 14, cut: 0, ready: true }],
  ["the count jumped by three within the second", held(1200, (i) => row(i < 5 ? 11 : 14)), { state: "steady", count: 14, cut: 0, ready: false }],
  ["tiles under the minimum width", held(1200, () => row(14, LIVE.min_tile - 4)), { state: "too_small", count: 14, cut: 0, ready: false }],
  ["small in the preview, big enough in the full-resolution shot", held(1200, () => row(14, LIVE.min_tile - 4), { scale: 3 }),
    { state: "steady", count: 14, cut: 0, ready: true }],
  ["big enough in the full-resolution frame, too small once the wide region is shrunk to the side sent",
    held(1200, () => Array.from({ length: 14 }, (_, i) => ({ x1: 40 + 85 * i, y1: 300, x2: 52 + 85 * i, y2: 316 })), { scale: 4000 / WIDTH }),
    { state: "too_small", count: 14, cut: 0, ready: false }],
  ["three tiles over the right edge", held(1200, () => row(14, 80, WIDTH - 11 * 80 - 20).map((box) => ({ ...box, x2: Math.min(box.x2, WIDTH) }))), { state: "cut", count: 14, cut: 3, ready: false }],
  ["too dark", held(1200, () => row(14), { luma: LIVE.min_luma - 1 }), { state: "dark", count: 14, cut: 0, ready: false }],
  ["blurred", held(1200, () => row(14), { sharpness: LIVE.min_sharpness - 1 }), { state: "blurred", count: 14, cut: 0, ready: false }],
  ["the camera sweeps across", held(1200, (i) => row(14, 60, 100 + 20 * i)), { state: "moving", count: 14, cut: 0, ready: false }],
  ["too few tiles to take the shot by itself", held(1200, () => row(LIVE.min_tiles - 1)), { state: "steady", count: LIVE.min_tiles - 1, cut: 0, ready: false }],
  ["one blurred frame within the second spoils it", held(1200, () => row(14)).map((f, i) => (i === 8 ? { ...f, sharpness: 1 } : f)),
    { state: "steady", count: 14, cut: 0, ready: false }],
  // issue 50: a steady motion blur, a defocus that the localiser finds nothing in, a slow device's few frames
  ["motion-blurred: the detail is under its minimum", held(1200, () => row(14), { detail: LIVE.min_detail - 0.1 }),
    { state: "blurred", count: 14, cut: 0, ready: false }],
  ["defocused, no tile found: blurred, not 'point at the tiles'", held(1200, () => [], { detail: 0.27 }),
    { state: "blurred", count: 0, cut: 0, ready: false }],
  ["the localiser unsure of the tiles", held(1200, () => row(14).map((box) => ({ ...box, score: LIVE.min_sure - 0.05 }))),
    { state: "unsure", count: 14, cut: 0, ready: false }],
  ["a second held still, but judged from three frames", Array.from({ length: 4 }, (_, i) => frame(i * 400, row(14))),
    { state: "steady", count: 14, cut: 0, ready: false }],
];
for (const [name, frames, expected] of cases) {
  test(`guide: ${name}`, () => assert.deepEqual(guide(frames, LIVE), expected));
}

test("a tile touching the border is cut; one a few px in is not", () => {
  const box = (x1, x2) => ({ x1, y1: 100, x2, y2: 180 });
  assert.equal(cutAtEdge([box(0, 60), box(100, 160), box(WIDTH - 60, WIDTH - 1)], WIDTH, HEIGHT, LIVE.edge), 2);
  assert.equal(cutAtEdge([box(20, 80)], WIDTH, HEIGHT, LIVE.edge), 0);
});

test("shift is in tile widths", () => {
  assert.equal(shift(row(5), row(5)), 0);
  assert.ok(Math.abs(shift(row(5, 60, 200), row(5, 60, 230)) - 30 / 58) < 1e-9);
});

/** A grey image of stripes `period` px wide (sharp edges), or a flat one. */
const stripes = (width, height, period, low, high) => ({
  width, height, data: Float32Array.from({ length: width * height }, (_, i) => ((i % width) / period) % 2 < 1 ? low : high),
});

test("frame stats: a flat frame has no sharpness, stripes have much; the luma is the mean", () => {
  assert.deepEqual(frameStats(stripes(160, 90, 1000, 40, 40)), { luma: 40, sharpness: 0 });
  const sharp = frameStats(stripes(160, 90, 4, 0, 200));
  assert.equal(sharp.luma, 100);
  assert.ok(sharp.sharpness > 100 * LIVE.min_sharpness, sharp.sharpness);
});

test("luma of RGBA pixels is BT.601", () => {
  const { data } = lumaOf({ data: Uint8ClampedArray.from([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255]), width: 3, height: 1 });
  assert.deepEqual([...data].map((v) => Math.round(v * 1000) / 1000), [76.245, 149.685, 29.07]);
});

const shots = [
  ["no tile found: the whole frame, shrunk", [], 4000, 3000, { x: 0, y: 0, width: 4000, height: 3000, outWidth: LIVE.shot_side, outHeight: 1200 }],
  ["a row of tiles: its region and one tile height round it", [{ x1: 1000, y1: 1000, x2: 1100, y2: 1140 }, { x1: 1100, y1: 1000, x2: 1200, y2: 1140 }],
    4000, 3000, { x: 860, y: 860, width: 480, height: 420, outWidth: 480, outHeight: 420 }],
  ["the margin stops at the frame's border", [{ x1: 10, y1: 20, x2: 110, y2: 160 }], 4000, 3000,
    { x: 0, y: 0, width: 250, height: 300, outWidth: 250, outHeight: 300 }],
  ["a wide region is sent at the side the server reads at", [{ x1: 300, y1: 1400, x2: 400, y2: 1540 }, { x1: 3500, y1: 1400, x2: 3600, y2: 1540 }],
    4000, 3000, { x: 160, y: 1260, width: 3580, height: 420, outWidth: LIVE.shot_side, outHeight: 188 }],
];
for (const [name, boxes, width, height, expected] of shots) {
  test(`shot: ${name}`, () => assert.deepEqual(shotRegion(boxes, width, height, LIVE), expected));
}

test("boxes found in the preview are placed on the full-resolution frame", () => {
  assert.deepEqual(scaleBoxes([{ x1: 10, y1: 20, x2: 30, y2: 40, kind: "face" }], 1280, 3840),
    [{ x1: 30, y1: 60, x2: 90, y2: 120, kind: "face" }]);
});

test("the live count begins with the number of tiles found, in either language (tests and screen readers read it so)", () => {
  for (const lang of LANGUAGES) {
    setLanguage(lang);
    assert.match(t("live_count", { n: 14 }), /^14\b/, lang);
  }
  setLanguage("en");
});

/** `image` smeared along x over `length` px (a camera moving sideways), or along both axes (out of focus). */
function smeared({ data, width, height }, length, both = false) {
  const along = (source, step, count) => Float32Array.from(source, (_, i) => {
    let sum = 0;
    let n = 0;
    for (let k = -(length >> 1); k <= length >> 1; k += 1) {
      const j = i + k * step;
      const x = (i % width) + (step === 1 ? k : 0);
      if (j >= 0 && j < count && x >= 0 && x < width) { sum += source[j]; n += 1; }
    }
    return sum / n;
  });
  const across = along(data, 1, data.length);
  return { data: both ? along(across, width, data.length) : across, width, height };
}

/** A checkerboard of `cell` px squares: sharp edges both ways, as tiles' faces and borders give. */
const checks = (width, height, cell) => ({
  width, height, data: Float32Array.from({ length: width * height }, (_, i) =>
    (Math.floor((i % width) / cell) + Math.floor(i / width / cell)) % 2 ? 200 : 30),
});

test("detail: a sharp view keeps it; a sideways smear or a defocus loses it; a flat view shows no blur", () => {
  const sharp = checks(160, 90, 7);
  assert.ok(detail(sharp) > 0.6, detail(sharp));
  assert.ok(detail(smeared(sharp, 7)) < LIVE.min_detail, detail(smeared(sharp, 7)));
  assert.ok(detail(smeared(sharp, 5, true)) < LIVE.min_detail, detail(smeared(sharp, 5, true)));
  assert.equal(detail(stripes(160, 90, 1000, 40, 40)), 1);
});
