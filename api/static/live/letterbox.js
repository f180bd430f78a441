// The localiser's input and output in the page, as vision/geometry.py and Recogniser.localise make and read them
// (one module, tested against the Python on the same photos by tests/js/localiser-python.test.js): the frame shrunk
// into a size×size grey square (OpenCV's bilinear resize, its fixed-point arithmetic included, so the pixels match),
// RGB scaled to [0, 1] in N×C×H×W order; the YOLO output's anchors at or above the conf threshold, NMS across
// classes, boxes mapped back to the frame's pixels. Pure: no DOM, no runtime.

export const PAD_VALUE = 114; // ultralytics' letterbox grey, which the localiser was trained with

// Python's round(): halves go to the even neighbour.
function roundHalfEven(value) {
  const floor = Math.floor(value);
  const rest = value - floor;
  if (rest !== 0.5) return Math.round(value);
  return floor % 2 === 0 ? floor : floor + 1;
}

// Where a width×height frame lies in the size×size square: its scale, resized size and top-left padding.
export function letterboxGeometry(width, height, size) {
  const scale = Math.min(size / height, size / width);
  const newWidth = Math.max(1, roundHalfEven(width * scale));
  const newHeight = Math.max(1, roundHalfEven(height * scale));
  return { size, scale, newWidth, newHeight, left: Math.trunc((size - newWidth) / 2),
           top: Math.trunc((size - newHeight) / 2) };
}

const COEF_SCALE = 2048; // OpenCV's INTER_RESIZE_COEF_SCALE: bilinear weights in 11-bit fixed point

// For each target pixel along one axis: its two source pixels and their fixed-point weights, as cv::resize
// (INTER_LINEAR) computes them, in single precision.
export function resizeTaps(source, target) {
  const scale = 1 / (target / source);
  const first = new Int32Array(target), second = new Int32Array(target);
  const weightFirst = new Int32Array(target), weightSecond = new Int32Array(target);
  for (let d = 0; d < target; d++) {
    let f = Math.fround((d + 0.5) * scale - 0.5);
    let s = Math.floor(f);
    f = Math.fround(f - s);
    if (s < 0) { s = 0; f = 0; }
    if (s >= source - 1) { s = source - 1; f = 0; }
    first[d] = s;
    second[d] = Math.min(s + 1, source - 1);
    weightFirst[d] = roundHalfEven(Math.fround(1 - f) * COEF_SCALE);
    weightSecond[d] = roundHalfEven(f * COEF_SCALE);
  }
  return { first, second, weightFirst, weightSecond };
}

// One source row's horizontal pass (RGB of RGBA), in fixed point.
function resizeRow(rgba, width, y, taps, out) {
  const row = y * width * 4;
  for (let x = 0; x < out.length / 3; x++) {
    const a = row + taps.first[x] * 4, b = row + taps.second[x] * 4;
    for (let c = 0; c < 3; c++) out[x * 3 + c] = rgba[a + c] * taps.weightFirst[x] + rgba[b + c] * taps.weightSecond[x];
  }
}

// The frame (RGBA bytes, width×height) as the localiser's input: a Float32Array of 3×size×size, and its geometry.
export function frameTensor({ data, width, height }, size) {
  const box = letterboxGeometry(width, height, size);
  const plane = size * size;
  const tensor = new Float32Array(3 * plane).fill(PAD_VALUE / 255);
  const across = resizeTaps(width, box.newWidth), down = resizeTaps(height, box.newHeight);
  let upper = new Int32Array(box.newWidth * 3), lower = new Int32Array(box.newWidth * 3);
  let upperRow = -1, lowerRow = -1;
  for (let y = 0; y < box.newHeight; y++) {
    const top = down.first[y], bottom = down.second[y];
    if (top === lowerRow) { [upper, lower] = [lower, upper]; upperRow = lowerRow; lowerRow = -1; }
    if (top !== upperRow) { resizeRow(data, width, top, across, upper); upperRow = top; }
    if (bottom !== lowerRow) { resizeRow(data, width, bottom, across, lower); lowerRow = bottom; }
    const wTop = down.weightFirst[y], wBottom = down.weightSecond[y];
    const at = (box.top + y) * size + box.left;
    for (let x = 0; x < box.newWidth; x++) {
      for (let c = 0; c < 3; c++) {
        // OpenCV's vectorised vertical pass: ((a >> 4) · wa >> 16) + ((b >> 4) · wb >> 16), rounded off 2 bits
        const sum = (((upper[x * 3 + c] >> 4) * wTop) >> 16) + (((lower[x * 3 + c] >> 4) * wBottom) >> 16);
        tensor[c * plane + at + x] = Math.min(255, Math.max(0, (sum + 2) >> 2)) / 255;
      }
    }
  }
  return { tensor, box };
}

// An ultralytics detect output (1, 4 + classes, anchors: cx, cy, w, h, class scores) → the anchors whose best class
// score reaches `conf`: [{x1, y1, x2, y2, score, classIndex}] in the square's pixels.
export function decodeYolo(output, dims, conf) {
  const [, rows, anchors] = dims;
  const found = [];
  for (let i = 0; i < anchors; i++) {
    let classIndex = 0, score = output[4 * anchors + i];
    for (let c = 1; c < rows - 4; c++) {
      const value = output[(4 + c) * anchors + i];
      if (value > score) { score = value; classIndex = c; }
    }
    if (score < conf) continue;
    const cx = output[i], cy = output[anchors + i], w = output[2 * anchors + i], h = output[3 * anchors + i];
    found.push({ x1: cx - w / 2, y1: cy - h / 2, x2: cx + w / 2, y2: cy + h / 2, score, classIndex });
  }
  return found;
}

export function iou(a, b) {
  const width = Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1));
  const height = Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
  const inter = width * height;
  const union = (a.x2 - a.x1) * (a.y2 - a.y1) + (b.x2 - b.x1) * (b.y2 - b.y1) - inter;
  return inter / Math.max(union, 1e-12);
}

// Greedy non-maximum suppression, best score first (ties in found order), across classes: a place on the table
// holds one tile, face or back.
export function nms(boxes, threshold) {
  const order = boxes.map((box, index) => index).sort((a, b) => boxes[b].score - boxes[a].score || a - b);
  const kept = [];
  for (const index of order) {
    if (kept.every((best) => iou(best, boxes[index]) <= threshold)) kept.push(boxes[index]);
  }
  return kept;
}

// Boxes from the square back to the width×height frame, clipped to it.
export function unletterbox(box, geometry, width, height) {
  const clip = (value, most) => Math.min(most, Math.max(0, value));
  const { left, top, scale } = geometry;
  return { x1: clip((box.x1 - left) / scale, width), y1: clip((box.y1 - top) / scale, height),
           x2: clip((box.x2 - left) / scale, width), y2: clip((box.y2 - top) / scale, height) };
}

// The localiser's output → the tiles found in the frame: [{x1, y1, x2, y2, score, kind}], best first.
// settings: {conf, nmsIou, classes} (vision.json's localiser.conf, recogniser.nms_iou, localiser.classes).
export function detections(output, dims, geometry, { width, height }, { conf, nmsIou, classes }) {
  return nms(decodeYolo(output, dims, conf), nmsIou).map((box) => ({
    ...unletterbox(box, geometry, width, height), score: box.score, kind: classes[box.classIndex],
  }));
}
