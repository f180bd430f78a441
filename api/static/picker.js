// The tile picker: a close-up of the tile, what can be done with it, the recogniser's likely codes (the current
// one marked) and every code. On a phone it is a sheet over the lower part of the screen, with the tile's box
// scrolled above it.
import { markFixing, showCloseup, startMarking } from "./boxes.js";
import { $, button } from "./dom.js";
import { t } from "./i18n.js";
import { addTile, deleteTile, moveTile, newMeld, removeTile, setCode, setWinning, state } from "./state.js";
import { allCodes, buttonName, tileFace, tileName } from "./tiles.js";

function paletteButton(code, onPick, current, note = "") {
  const element = button("pick", "", () => {
    $("picker").close();
    onPick(code);
  });
  element.dataset.code = code;
  element.append(tileFace(code));
  const words = [code === "back" ? t("back") : "", note, code === current ? t("current") : ""].filter(Boolean).join(" · ");
  if (words) element.append(Object.assign(document.createElement("small"), { textContent: words }));
  if (code === current) {
    element.classList.add("current");
    element.setAttribute("aria-current", "true");
  }
  element.setAttribute("aria-label", buttonName(code, words));
  return element;
}

function showPicker({ title, tile, onPick, actions }) {
  $("picker-title").textContent = title;
  const current = tile?.code;
  showCloseup($("picker-closeup"), tile ?? {});
  const likely = (tile?.alternatives ?? []).filter((alternative) => Math.round(100 * alternative.p) > 0);
  const choices = tile?.box && !tile.edited ? [{ code: current, p: tile.confidence }, ...likely] : likely;
  $("picker-alternatives").replaceChildren(...(choices.length ? [
    Object.assign(document.createElement("h3"), { textContent: t("likely") }),
    Object.assign(document.createElement("div"), { className: "palette likely" }),
  ] : []));
  const row = $("picker-alternatives").querySelector(".likely");
  for (const choice of choices) row.append(paletteButton(choice.code, onPick, current, `${Math.round(100 * choice.p)}%`));
  $("palette").replaceChildren(...allCodes().map((code) => paletteButton(code, onPick, current)));
  $("picker-actions").replaceChildren(...actions.map(([label, action]) => button("", label, () => {
    $("picker").close();
    action();
  })));
  $("picker").showModal();
  $("picker").scrollTop = 0;
}

/** Keep the tile's box in view above the sheet the picker is on a phone. */
function revealAbovePicker(id) {
  const box = document.querySelector(`.box[data-tile="${id}"]`);
  if (!box) return;
  const sheet = $("picker").getBoundingClientRect();
  const rect = box.getBoundingClientRect();
  if (rect.bottom > sheet.top - 8 || rect.top < 0) window.scrollBy(0, rect.top - Math.max(8, (sheet.top - rect.height) / 2));
}

/** Focus tile `id`'s button where the hand shows it now (a tile taken out of it is gone: nothing to focus). */
function focusTile(id) {
  // the view stays where the action put it (the photo, to draw a box)
  document.querySelector(`.tile-button[data-tile="${id}"]`)?.focus({ preventScroll: true });
}

/** The picker for tile `id`; `onChange()` runs after whatever the user picks. */
export function openPicker(id, onChange) {
  const tile = state.tiles.get(id);
  // after the hand is drawn again, focus goes back to the tile (its old button is gone: focus fell to <body>)
  const done = () => { onChange(); focusTile(id); };
  const then = (change) => () => { change(); done(); };
  const actions = [];
  const inHand = !state.loose.includes(id);
  if (state.concealed.includes(id) && state.winning !== id && tile.code !== "back") actions.push([t("winning"), () => setWinning(state, id)]);
  if (!state.concealed.includes(id)) actions.push([t("to_standing"), () => moveTile(state, id, state.concealed)]);
  state.melds.forEach((meld, index) => {
    if (!meld.tiles.includes(id)) actions.push([t("to_meld", { n: index + 1 }), () => moveTile(state, id, meld.tiles)]);
  });
  actions.push([t("to_new_meld"), () => moveTile(state, id, newMeld(state).tiles)]);
  if (!state.flowers.includes(id)) actions.push([t("to_flowers"), () => moveTile(state, id, state.flowers)]);
  if (state.recognition) actions.push([tile.box ? t("redraw_box") : t("mark_box"), () => startMarking(id)]);
  if (inHand) actions.push([t("out_of_hand"), () => removeTile(state, id)]);
  if (tile.box) actions.push([t("not_a_tile"), () => deleteTile(state, id)]);
  const sure = tile.box && !tile.edited ? ` · ${t("sure", { n: Math.round(100 * tile.confidence) })}` : "";
  showPicker({ title: `${tileName(tile.code)}${sure}`, tile, onPick: (code) => { setCode(state, id, code); done(); },
    actions: actions.map(([label, action]) => [label, then(action)]) });
  markFixing(id); // the tile being fixed, marked on the photo until the picker closes
  $("picker").addEventListener("close", () => markFixing(null), { once: true });
  revealAbovePicker(id);
}

/** The picker that adds a new tile to `target` (a group of the hand): pick its code, or draw its box on the
 *  photo and let the server name it. */
export function openPalette(target, onChange) {
  const draw = () => {
    const id = addTile(state, "back");
    state.tiles.get(id).pending = true; // named by the server once its box is drawn
    moveTile(state, id, target);
    startMarking(id);
    onChange();
  };
  showPicker({ title: t("add_tile"), onPick: (code) => { moveTile(state, addTile(state, code), target); onChange(); },
    actions: state.recognition ? [[t("draw_on_photo"), draw]] : [] });
}
