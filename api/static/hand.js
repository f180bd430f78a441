// The hand below the photo: standing tiles, melds, flowers, suggested fixes and the one-line summary.
import { $, button } from "./dom.js";
import { handRequest, handSummary } from "./requests.js";
import { applySuggestion, dissolveMeld, isApplied, isLow, state } from "./state.js";
import { tileFace } from "./tiles.js";
import { seatOptions } from "./form.js";

const MELD_KINDS = {
  chow: "Chow 吃", pung: "Pung 碰", kong: "Exposed kong 明杠", kong_added: "Added kong 补杠",
  kong_concealed: "Concealed kong 暗杠",
};

/** `actions`: onTile(id) when a tile is tapped, onAdd(group) for its + button, onChange() after any edit. */
export function renderHand(actions) {
  renderGroup($("concealed"), state.concealed, actions);
  renderGroup($("flowers"), state.flowers, actions);
  renderMelds(actions);
  renderSuggestions(actions);
  $("hand-summary").textContent = handSummary(handRequest(state));
}

function tileButton(id, { onTile }) {
  const tile = state.tiles.get(id);
  const element = button("tile-button", "", () => onTile(id));
  element.dataset.tile = id;
  element.classList.toggle("low", isLow(tile));
  element.classList.toggle("winning", id === state.winning);
  element.classList.toggle("unseen", !tile.box);
  element.append(tileFace(tile.code));
  return element;
}

function renderGroup(container, ids, actions) {
  const add = button("add-tile", "+", () => actions.onAdd(ids));
  add.setAttribute("aria-label", "Add a tile");
  container.replaceChildren(...ids.map((id) => tileButton(id, actions)), add);
}

function renderMelds(actions) {
  $("melds").replaceChildren(...state.melds.map((meld, index) => {
    const group = document.createElement("div");
    group.className = "group meld";
    const head = document.createElement("div");
    head.className = "group-head";
    const kind = document.createElement("select");
    kind.setAttribute("aria-label", `Meld ${index + 1} kind`);
    for (const [value, label] of Object.entries(MELD_KINDS)) kind.add(new Option(label, value));
    kind.value = meld.kind;
    kind.addEventListener("change", () => { meld.kind = kind.value; actions.onChange(); });
    head.append(kind);
    if (meld.kind === "kong") {
      const fedBy = document.createElement("select");
      fedBy.setAttribute("aria-label", "Kong made from the discard of");
      seatOptions(fedBy, true);
      fedBy.options[0].text = "fed by —";
      fedBy.value = meld.fed_by;
      fedBy.addEventListener("change", () => { meld.fed_by = fedBy.value; actions.onChange(); });
      head.append(fedBy);
    }
    head.append(button("quiet", "Dissolve", () => { dissolveMeld(state, index); actions.onChange(); }));
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    renderGroup(tiles, meld.tiles, actions);
    group.append(head, tiles);
    return group;
  }));
}

function describeSuggestion(suggestion) {
  if (suggestion.text) return suggestion.text;
  return (suggestion.changes ?? []).map((change) => `tile ${change.tile + 1}: ${change.from ?? ""} → ${change.to}`).join(", ");
}

function renderSuggestions(actions) {
  const suggestions = (state.recognition?.suggestions ?? []).filter((suggestion) => !isApplied(state, suggestion));
  $("suggestions-section").hidden = suggestions.length === 0;
  $("suggestions").replaceChildren(...suggestions.map((suggestion) => {
    const item = document.createElement("li");
    const p = suggestion.p ?? suggestion.probability;
    item.textContent = describeSuggestion(suggestion) + (p === undefined || suggestion.text ? "" : ` (p ${p.toFixed(2)})`);
    item.append(" ", button("", "Apply", () => { applySuggestion(state, suggestion); actions.onChange(); }));
    return item;
  }));
}
