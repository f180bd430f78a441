// The photo's boxes, one per labelled tile (in the hand or not), in reading order; drawing a box for a tile the
// recogniser missed (or boxed badly); close-ups of a tile's box for the picker.
import { $, setStatus } from "./dom.js";
import { t } from "./i18n.js";
import { deleteTile, isLow, state } from "./state.js";
import { tileName } from "./tiles.js";

let onBoxClick = () => {};
let onBoxDrawn = () => {};
let onMarkingCancelled = () => {};
let dragStart = null; // where the box being dragged began, in the photo's pixels

/** Tiles in reading order: rows top to bottom (a new row where a tile's centre is below the row's tiles),
 *  each left to right, so keyboard focus walks the photo as a person reads it. */
export function readingOrder(tiles) {
  const centreY = (tile) => (tile.box[1] + tile.box[3]) / 2;
  const rows = [];
  for (const tile of [...tiles].sort((a, b) => centreY(a) - centreY(b))) {
    const row = rows.at(-1);
    if (row && centreY(tile) < Math.max(...row.map((other) => other.box[3]))) row.push(tile);
    else rows.push([tile]);
  }
  return rows.flatMap((row) => row.sort((a, b) => a.box[0] - b.box[0]));
}

const LABEL_PLACES = [["below", "centre"], ["above", "centre"], ["below", "end"], ["above", "end"], ["below", "start"],
  ["above", "start"], ["below", "after"], ["above", "after"], ["below", "before"], ["above", "before"]];

/** Where each box's label goes, as [side, along] from LABEL_PLACES, given the boxes' rectangles and the labels'
 *  sizes (in px, one frame) and the rectangle labels must stay in: the first place that meets no other box, no
 *  label placed before it and stays in bounds; if none does, the place that overlaps least. Below the box first,
 *  as on an upright photo; on a slanted one the next tile's box covers that place, so a label moves above or
 *  along (issue 35). */
export function placeLabels(boxes, sizes, bounds) {
  const overlap = (a, b) => Math.max(0, Math.min(a.right, b.right) - Math.max(a.left, b.left))
    * Math.max(0, Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top));
  const outside = (r) => (r.right - r.left) * (r.bottom - r.top) - overlap(r, bounds);
  const placed = [];
  return boxes.map((box, i) => {
    const { width, height } = sizes[i];
    const others = [...boxes.filter((_, j) => j !== i), ...placed];
    let best = null;
    for (const place of LABEL_PLACES) {
      const rect = labelRect(box, { width, height }, place);
      const cost = outside(rect) + others.reduce((sum, other) => sum + overlap(rect, other), 0);
      if (best === null || cost < best.cost) best = { place, rect, cost };
      if (cost === 0) break;
    }
    placed.push(best.rect);
    return best.place;
  });
}

/** The rectangle of a width×height label put at `place` by `box`. */
export function labelRect(box, { width, height }, [side, along]) {
  const top = side === "below" ? box.bottom : box.top - height;
  const left = { centre: (box.left + box.right - width) / 2, start: box.left, end: box.right - width,
    after: box.right, before: box.left - width }[along];
  return { left, top, right: left + width, bottom: top + height };
}

/** Put each box's label where placeLabels says, for the boxes as the page shows them now. */
function layOutLabels() {
  const photo = $("photo").getBoundingClientRect();
  const boxes = [...$("boxes").children];
  const rects = boxes.map((box) => box.getBoundingClientRect());
  const labels = boxes.map((box) => box.querySelector("span"));
  const sizes = labels.map((label) => label.getBoundingClientRect());
  // below the bottom row, labels may use the photo's bottom margin, kept for them
  const bounds = { left: photo.left, top: photo.top, right: photo.right,
    bottom: photo.bottom + parseFloat(getComputedStyle($("photo")).marginBottom) };
  placeLabels(rects, sizes, bounds).forEach((place, i) => {
    const rect = labelRect(rects[i], sizes[i], place);
    // offsets from the box's padding edge, which positions the label
    Object.assign(labels[i].style, { left: `${rect.left - rects[i].left - boxes[i].clientLeft}px`,
      top: `${rect.top - rects[i].top - boxes[i].clientTop}px` });
    labels[i].dataset.place = place.join(" ");
  });
}

let labelsWatched = false;

/** CSS background size and position that show only `box` of a width×height photo, filling the element. */
export function closeupStyle([x1, y1, x2, y2], { width, height }) {
  const w = Math.max(x2 - x1, 1);
  const h = Math.max(y2 - y1, 1);
  const position = (start, size, whole) => (whole - size > 0 ? (100 * start) / (whole - size) : 0);
  return {
    backgroundSize: `${(100 * width) / w}% ${(100 * height) / h}%`,
    backgroundPosition: `${position(x1, w, width)}% ${position(y1, h, height)}%`,
  };
}

export function showCloseup(element, tile) {
  element.hidden = !tile.box || !state.recognition;
  if (element.hidden) return;
  Object.assign(element.style, { backgroundImage: `url("${$("photo-image").src}")` }, closeupStyle(tile.box, state.recognition.image));
  element.setAttribute("aria-label", t("closeup"));
}

export function renderBoxes() {
  const recognition = state.recognition;
  const boxes = [];
  if (recognition) {
    const { width, height } = recognition.image;
    const loose = new Set(state.loose);
    for (const tile of readingOrder([...state.tiles.values()].filter((tile) => tile.box))) {
      const [x1, y1, x2, y2] = tile.box;
      const box = document.createElement("button");
      box.type = "button";
      box.className = "box";
      box.classList.toggle("low", isLow(tile));
      box.classList.toggle("edited", tile.edited);
      box.classList.toggle("loose", loose.has(tile.id));
      box.classList.toggle("fixing", tile.id === fixing);
      box.dataset.tile = tile.id;
      Object.assign(box.style, {
        left: `${(100 * x1) / width}%`, top: `${(100 * y1) / height}%`,
        width: `${(100 * (x2 - x1)) / width}%`, height: `${(100 * (y2 - y1)) / height}%`,
      });
      const sure = tile.edited ? "" : `, ${t("sure", { n: Math.round(100 * tile.confidence) })}`;
      // The hand's list holds every tile as a button, named; the boxes are the same tiles drawn on the photo, so
      // they stay out of the tab order and of the accessibility tree (issue 35: every tile was in the tab order
      // twice), a pointer's way to a tile, with its name as a tooltip.
      box.tabIndex = -1;
      box.title = `${tileName(tile.code)}${sure}`;
      box.append(Object.assign(document.createElement("span"), { textContent: tile.code === "back" ? "▮" : tile.code }));
      box.addEventListener("click", () => onBoxClick(tile.id));
      boxes.push(box);
    }
  }
  $("boxes").replaceChildren(...boxes);
  layOutLabels();
  if (!labelsWatched) new ResizeObserver(layOutLabels).observe($("photo")); // px places go stale as the photo resizes
  labelsWatched = true;
}

let fixing = null; // the tile whose picker is open: its box is marked on the photo

/** Mark tile `id`'s box as the one being fixed (its picker is open), or none. */
export function markFixing(id) {
  fixing = id;
  for (const box of $("boxes").children) box.classList.toggle("fixing", box.dataset.tile === String(id));
}

/** Mark the boxes of `ids` (the tiles a suggestion changes), or none. */
export function highlightBoxes(ids = []) {
  const wanted = new Set(ids.map(String));
  for (const box of $("boxes").children) box.classList.toggle("highlight", wanted.has(box.dataset.tile));
}

let boxBefore = null; // the box of the tile being marked, put back if the drawing is cancelled

export function startMarking(id) {
  state.marking = id;
  boxBefore = state.tiles.get(id).box;
  $("photo").classList.add("marking");
  $("cancel-marking").hidden = false;
  const { pending, code } = state.tiles.get(id);
  setStatus($("photo-status"), () => (pending ? t("drag_new") : t("drag", { tile: tileName(code) })));
  $("photo").scrollIntoView({ block: "center" });
}

function photoPoint(event) {
  const rect = $("photo-image").getBoundingClientRect();
  const { width, height } = state.recognition.image;
  const clamp = (value) => Math.min(Math.max(value, 0), 1);
  return [clamp((event.clientX - rect.left) / rect.width) * width, clamp((event.clientY - rect.top) / rect.height) * height];
}

/** Leave drawing mode as it was entered: a tile added to be drawn goes, a redrawn box comes back. */
function stopMarking() {
  state.marking = null;
  $("photo").classList.remove("marking");
  $("cancel-marking").hidden = true;
}

/** Cancel drawing, if a box is being drawn: the tile added to be drawn goes (it would stay in the hand as a
 *  face-down tile), a redrawn box comes back. The Cancel button, Escape, and Clear (issue 50) call it. */
export function cancelMarking() {
  if (state.marking === null) return;
  const tile = state.tiles.get(state.marking);
  if (tile.pending) deleteTile(state, tile.id);
  else tile.box = boxBefore;
  dragStart = null;
  stopMarking();
  setStatus($("photo-status"), () => t("marking_cancelled"));
  onMarkingCancelled();
}

/** Wire the photo: `onClick(id)` when a box is tapped, `onDrawn(id)` when a box is drawn for tile id,
 *  `onCancelled()` when drawing is cancelled (`cancelMarking`). */
export function wireBoxes({ onClick, onDrawn, onCancelled }) {
  onBoxClick = onClick;
  onBoxDrawn = onDrawn;
  onMarkingCancelled = onCancelled;
  const photo = $("photo");
  $("cancel-marking").addEventListener("click", cancelMarking);
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") cancelMarking();
  });
  const boxFrom = (end) => [Math.min(dragStart[0], end[0]), Math.min(dragStart[1], end[1]), Math.max(dragStart[0], end[0]), Math.max(dragStart[1], end[1])];
  photo.addEventListener("pointerdown", (event) => {
    if (state.marking === null) return;
    event.preventDefault();
    photo.setPointerCapture(event.pointerId);
    dragStart = photoPoint(event);
  });
  photo.addEventListener("pointermove", (event) => {
    if (dragStart === null) return;
    state.tiles.get(state.marking).box = boxFrom(photoPoint(event));
    renderBoxes();
  });
  photo.addEventListener("pointerup", (event) => {
    if (dragStart === null) return;
    const [x1, y1, x2, y2] = boxFrom(photoPoint(event));
    const tile = state.tiles.get(state.marking);
    tile.box = x2 - x1 >= 2 && y2 - y1 >= 2 ? [x1, y1, x2, y2] : null; // a tap is not a box
    tile.edited = true;
    dragStart = null;
    stopMarking();
    const drawn = tile.box !== null;
    setStatus($("photo-status"), () => (drawn ? t("naming") : t("no_box")));
    onBoxDrawn(tile.id);
  });
}
