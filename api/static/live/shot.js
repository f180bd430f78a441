// The shot the viewfinder sends (issue 39 item 3): not the whole frame but the region holding the tiles, grown by
// a margin, at the side the server reads at (vision.json's `recogniser.live.shot_margin` and `shot_side`). Pure.
import { fitSize } from "../photo.js";

/** The rectangle of a width×height frame to send, `{x, y, width, height}` in whole pixels, and the size it is sent
 *  at, `{outWidth, outHeight}` (never enlarged). `boxes` ([{x1, y1, x2, y2}], in the frame's pixels) are the
 *  tiles found; the region is their bounding box grown by `shot_margin` median tile heights each way, clipped to
 *  the frame. With no box the whole frame is sent. */
export function shotRegion(boxes, width, height, live) {
  let region = { x: 0, y: 0, width, height };
  if (boxes.length) {
    const sides = boxes.map((box) => Math.max(box.x2 - box.x1, box.y2 - box.y1)).sort((a, b) => a - b);
    const margin = live.shot_margin * sides[sides.length >> 1];
    const x1 = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.x1)) - margin));
    const y1 = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.y1)) - margin));
    const x2 = Math.min(width, Math.ceil(Math.max(...boxes.map((box) => box.x2)) + margin));
    const y2 = Math.min(height, Math.ceil(Math.max(...boxes.map((box) => box.y2)) + margin));
    region = { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
  }
  const { width: outWidth, height: outHeight } = fitSize(region.width, region.height, live.shot_side);
  return { ...region, outWidth, outHeight };
}

/** `boxes` found in a frame `from` px wide, in the pixels of the same view `to` px wide. */
export const scaleBoxes = (boxes, from, to) => boxes.map((box) => {
  const k = to / from;
  return { ...box, x1: box.x1 * k, y1: box.y1 * k, x2: box.x2 * k, y2: box.y2 * k };
});
