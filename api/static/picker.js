// The tile picker: the recogniser's likely codes, every code, and what can be done with the tile.
import { $, button } from "./dom.js";
import { addTile, moveTile, newMeld, removeTile, setCode, state } from "./state.js";
import { ALL_CODES, tileFace, tileName } from "./tiles.js";
import { startMarking } from "./boxes.js";

function paletteButton(code, onPick, note = "") {
  const element = button("pick", "", () => {
    onPick(code);
    $("picker").close();
  });
  element.dataset.code = code;
  element.append(tileFace(code));
  if (note) element.append(Object.assign(document.createElement("small"), { textContent: note }));
  return element;
}

function showPicker(title, onPick, alternatives, actions) {
  $("picker-title").textContent = title;
  $("picker-alternatives").replaceChildren(...(alternatives.length
    ? [Object.assign(document.createElement("h3"), { textContent: "Most likely" }),
      Object.assign(document.createElement("div"), { className: "palette likely" })]
    : []));
  const likely = $("picker-alternatives").querySelector(".likely");
  for (const alternative of alternatives) {
    likely.append(paletteButton(alternative.code, onPick, alternative.p === undefined ? "" : `${Math.round(100 * alternative.p)}%`));
  }
  $("palette").replaceChildren(...ALL_CODES.map((code) => paletteButton(code, onPick)));
  $("picker-actions").replaceChildren(...actions.map(([label, action]) => button("", label, () => {
    action();
    $("picker").close();
  })));
  $("picker").showModal();
}

/** The picker for tile `id`; `onChange()` runs after whatever the user picks. */
export function openPicker(id, onChange) {
  const tile = state.tiles.get(id);
  const sure = tile.box && !tile.edited ? ` · ${Math.round(100 * tile.confidence)}% sure` : "";
  const then = (change) => () => { change(); onChange(); };
  const actions = [];
  if (state.concealed.includes(id) && state.winning !== id) actions.push(["★ Winning tile", () => { state.winning = id; }]);
  if (!state.concealed.includes(id)) actions.push(["→ Standing", () => moveTile(state, id, state.concealed)]);
  state.melds.forEach((meld, index) => {
    if (!meld.tiles.includes(id)) actions.push([`→ Meld ${index + 1}`, () => moveTile(state, id, meld.tiles)]);
  });
  actions.push(["→ New meld", () => moveTile(state, id, newMeld(state).tiles)]);
  if (!state.flowers.includes(id)) actions.push(["→ Flowers", () => moveTile(state, id, state.flowers)]);
  if (state.recognition) actions.push([tile.box ? "□ Redraw its box" : "□ Mark it on the photo", () => startMarking(id)]);
  actions.push(["✕ Remove", () => removeTile(state, id)]);
  showPicker(`${tileName(tile.code)}${sure}`, (code) => { setCode(state, id, code); onChange(); }, tile.alternatives,
    actions.map(([label, action]) => [label, then(action)]));
}

/** The picker that adds a new tile to `target` (a group of the hand). */
export function openPalette(target, onChange) {
  showPicker("Add a tile", (code) => { moveTile(state, addTile(state, code), target); onChange(); }, [], []);
}
