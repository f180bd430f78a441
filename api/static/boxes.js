// The photo's boxes, one per labelled tile, and drawing a box for a tile the recogniser missed (or boxed
// badly): its label for the dataset.
import { $, setStatus } from "./dom.js";
import { isLow, placedIds, state } from "./state.js";
import { tileName } from "./tiles.js";

let onBoxClick = () => {};
let onBoxDrawn = () => {};

export function renderBoxes() {
  const recognition = state.recognition;
  const boxes = [];
  if (recognition) {
    const { width, height } = recognition.image;
    const placed = placedIds(state);
    for (const tile of state.tiles.values()) {
      if (!tile.box || !placed.has(tile.id)) continue;
      const [x1, y1, x2, y2] = tile.box;
      const box = document.createElement("button");
      box.type = "button";
      box.className = "box";
      box.classList.toggle("low", isLow(tile));
      box.classList.toggle("edited", tile.edited);
      box.dataset.tile = tile.id;
      Object.assign(box.style, {
        left: `${(100 * x1) / width}%`, top: `${(100 * y1) / height}%`,
        width: `${(100 * (x2 - x1)) / width}%`, height: `${(100 * (y2 - y1)) / height}%`,
      });
      box.setAttribute("aria-label", `${tileName(tile.code)}, ${Math.round(100 * tile.confidence)}% sure`);
      const label = document.createElement("span");
      label.textContent = tile.code;
      box.append(label);
      box.addEventListener("click", () => onBoxClick(tile.id));
      boxes.push(box);
    }
  }
  $("boxes").replaceChildren(...boxes);
}

export function startMarking(id) {
  state.marking = id;
  $("photo").classList.add("marking");
  setStatus($("photo-status"), `Drag a box around the ${tileName(state.tiles.get(id).code)} on the photo.`);
  $("photo").scrollIntoView({ block: "center" });
}

function photoPoint(event) {
  const rect = $("photo-image").getBoundingClientRect();
  const { width, height } = state.recognition.image;
  const clamp = (value) => Math.min(Math.max(value, 0), 1);
  return [clamp((event.clientX - rect.left) / rect.width) * width, clamp((event.clientY - rect.top) / rect.height) * height];
}

/** Wire the photo: `onClick(id)` when a box is tapped, `onDrawn(id)` when a drawn box is finished. */
export function wireBoxes({ onClick, onDrawn }) {
  onBoxClick = onClick;
  onBoxDrawn = onDrawn;
  const photo = $("photo");
  let start = null;
  const boxFrom = (end) => [Math.min(start[0], end[0]), Math.min(start[1], end[1]), Math.max(start[0], end[0]), Math.max(start[1], end[1])];
  photo.addEventListener("pointerdown", (event) => {
    if (state.marking === null) return;
    event.preventDefault();
    photo.setPointerCapture(event.pointerId);
    start = photoPoint(event);
  });
  photo.addEventListener("pointermove", (event) => {
    if (start === null) return;
    state.tiles.get(state.marking).box = boxFrom(photoPoint(event));
    renderBoxes();
  });
  photo.addEventListener("pointerup", (event) => {
    if (start === null) return;
    const [x1, y1, x2, y2] = boxFrom(photoPoint(event));
    const tile = state.tiles.get(state.marking);
    tile.box = x2 - x1 >= 2 && y2 - y1 >= 2 ? [x1, y1, x2, y2] : null; // a tap is not a box
    tile.edited = true;
    start = null;
    state.marking = null;
    photo.classList.remove("marking");
    setStatus($("photo-status"), tile.box ? "Box drawn." : "No box drawn: drag across the tile.");
    onBoxDrawn(tile.id);
  });
}
