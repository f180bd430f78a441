// The framing guide of the live viewfinder (issue 39): from the last second or so of frames (the localiser's
// boxes, each frame's brightness and sharpness) what the person should do, and whether the shot may be taken by
// itself. Pure: the thresholds are vision.json's `recogniser.live` section (vision/config.py `Live`), passed in.
import { shotRegion } from "./shot.js";

/** Mean luma (0-255) and sharpness (the variance of the 4-neighbour Laplacian) of a grey image given as
 *  `{data: luma per pixel, width, height}`: a small copy of the frame, `sharpness_width` px wide. */
export function frameStats({ data, width, height }) {
  let sum = 0;
  for (let i = 0; i < data.length; i += 1) sum += data[i];
  let lapSum = 0;
  let lapSquares = 0;
  let n = 0;
  for (let y = 1; y < height - 1; y += 1) {
    for (let x = 1; x < width - 1; x += 1) {
      const i = y * width + x;
      const lap = 4 * data[i] - data[i - 1] - data[i + 1] - data[i - width] - data[i + width];
      lapSum += lap;
      lapSquares += lap * lap;
      n += 1;
    }
  }
  const mean = n ? lapSum / n : 0;
  return { luma: data.length ? sum / data.length : 0, sharpness: n ? lapSquares / n - mean * mean : 0 };
}

/** Gradient energy along x and along y of a grey image, per pixel step. */
function gradientEnergy({ data, width, height }) {
  let ex = 0;
  let ey = 0;
  for (let y = 0; y < height - 1; y += 1) {
    for (let x = 0; x < width - 1; x += 1) {
      const i = y * width + x;
      ex += (data[i + 1] - data[i]) ** 2;
      ey += (data[i + width] - data[i]) ** 2;
    }
  }
  const n = Math.max(1, (width - 1) * (height - 1));
  return [ex / n, ey / n];
}

/** The grey image at half its size (each 2×2 block's mean). */
function halved({ data, width, height }) {
  const w = width >> 1;
  const h = height >> 1;
  const half = new Float32Array(w * h);
  for (let y = 0; y < h; y += 1) {
    for (let x = 0; x < w; x += 1) {
      const i = 2 * y * width + 2 * x;
      half[y * w + x] = (data[i] + data[i + 1] + data[i + width] + data[i + width + 1]) / 4;
    }
  }
  return { data: half, width: w, height: h };
}

/** How much of a grey image's detail survives at its own scale (the localiser's copy of the frame), 0-1: its gradient energy
 *  over that of its half-size copy, in the weaker direction. A sharp edge is a step at either scale (near 1); a
 *  blurred one is a ramp whose slope halves with the scale (near 1/4). Motion blur smears one direction, defocus
 *  both; the ratio does not depend on how much the view holds, so it needs no tiles found (issue 50: a 25 px
 *  motion blur kept a Laplacian variance well above its threshold). A flat image shows no blur: 1. */
export function detail(image) {
  const [fineX, fineY] = gradientEnergy(image);
  const [coarseX, coarseY] = gradientEnergy(halved(image));
  const ratio = (fine, coarse) => (coarse > 1e-6 ? fine / coarse : 1);
  return Math.min(ratio(fineX, coarseX), ratio(fineY, coarseY));
}

/** The luma (BT.601) of each pixel of RGBA pixels. */
export function lumaOf({ data, width, height }) {
  const luma = new Float32Array(width * height);
  for (let i = 0; i < luma.length; i += 1) luma[i] = 0.299 * data[4 * i] + 0.587 * data[4 * i + 1] + 0.114 * data[4 * i + 2];
  return { data: luma, width, height };
}

const median = (values) => {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const centre = (box) => [(box.x1 + box.x2) / 2, (box.y1 + box.y2) / 2];

/** The median tile width of `boxes` (the shorter side of each box: a tile may lie either way). */
export const tileWidth = (boxes) => median(boxes.map((box) => Math.min(box.x2 - box.x1, box.y2 - box.y1)));

/** How many boxes touch the frame's border (within `edge`, a share of the frame's side). */
export function cutAtEdge(boxes, width, height, edge) {
  const dx = edge * width;
  const dy = edge * height;
  return boxes.filter((box) => box.x1 <= dx || box.y1 <= dy || box.x2 >= width - dx || box.y2 >= height - dy).length;
}

/** How far the tiles moved between two frames, in tile widths: the median distance from each tile now to the
 *  nearest one before. */
export function shift(before, now) {
  if (!before.length || !now.length) return 0;
  const distances = now.map((box) => {
    const [x, y] = centre(box);
    return Math.min(...before.map((other) => Math.hypot(centre(other)[0] - x, centre(other)[1] - y)));
  });
  return median(distances) / Math.max(1, tileWidth(now));
}

/** The median tile width in the shot as it will be sent: the tiles' region of the full-resolution frame (`scale`
 *  times this frame), shrunk to `shot_side`. */
export function shotTileWidth(boxes, width, height, scale, live) {
  const region = shotRegion(boxes, width, height, live);
  return tileWidth(boxes) * scale * Math.min(1, live.shot_side / (scale * Math.max(region.width, region.height)));
}

/** What one frame needs, without looking at the frames before it. A frame is
 *  `{t, boxes, width, height, luma, sharpness, scale}`; `scale` is the full-resolution frame's width over this
 *  frame's (a tile that is small here may be big enough in the shot). */
function frameState(frame, live) {
  if (frame.luma < live.min_luma) return "dark";
  if (frame.sharpness < live.min_sharpness || (frame.detail ?? 1) < live.min_detail) return "blurred";
  if (!frame.boxes.length) return "none";
  if (shotTileWidth(frame.boxes, frame.width, frame.height, frame.scale ?? 1, live) < live.min_tile) return "too_small";
  if (cutAtEdge(frame.boxes, frame.width, frame.height, live.edge)) return "cut";
  if (median(frame.boxes.map((box) => box.score)) < live.min_sure) return "unsure"; // never shot on a guess
  return "steady";
}

/** The guide for `frames`, oldest first, the newest last:
 *  `{state: "steady"|"too_small"|"cut"|"dark"|"blurred"|"unsure"|"none"|"moving", count, cut, ready}`.
 *  `ready` (take the shot) when for `steady_ms` every frame was steady, the count stayed within one and the tiles
 *  still, with at least `min_tiles` found, and at least `min_frames` frames analysed in that time (a slow device's
 *  two or three frames say too little about a second). */
export function guide(frames, live) {
  const now = frames.at(-1);
  if (!now) return { state: "none", count: 0, cut: 0, ready: false };
  const count = now.boxes.length;
  const cut = cutAtEdge(now.boxes, now.width, now.height, live.edge);
  let state = frameState(now, live);
  const previous = frames.at(-2);
  if (state === "steady" && previous && shift(previous.boxes, now.boxes) > live.max_shift) state = "moving";
  const recent = frames.filter((frame) => frame.t >= now.t - live.steady_ms);
  const counts = recent.map((frame) => frame.boxes.length);
  const held = frames[0].t <= now.t - live.steady_ms // the frames reach back far enough
    && recent.length >= live.min_frames
    && recent.every((frame, i) => frameState(frame, live) === "steady"
      && (i === 0 || shift(recent[i - 1].boxes, frame.boxes) <= live.max_shift))
    && Math.max(...counts) - Math.min(...counts) <= 1;
  return { state, count, cut, ready: state === "steady" && held && count >= live.min_tiles };
}
