// The hand below the photo: standing tiles, melds, flowers, the tile count, the tray of loose tiles, and the
// suggested fixes (which light up the tiles they change on the photo).
import { highlightBoxes } from "./boxes.js";
import { $, button } from "./dom.js";
import { seatOptions } from "./form.js";
import { t } from "./i18n.js";
import { handRequest } from "./requests.js";
import { applySuggestion, dissolveMeld, isApplied, isLow, state, tileCount } from "./state.js";
import { allCodes, buttonName, tileFace, tileName } from "./tiles.js";

const MELD_KINDS = ["chow", "pung", "kong", "kong_added", "kong_concealed"];
const LIKELY = 0.5; // a suggestion's probability is shown from here up

/** `actions`: onTile(id) when a tile is tapped, onAdd(group) for a group's + button, onChange() after an edit;
 *  `rules`: the rule set's options (a rule set without chows greys the chow out). */
export function renderHand(actions, rules = {}) {
  renderGroup($("concealed"), state.concealed, actions);
  renderGroup($("flowers"), state.flowers, actions);
  renderMelds(actions, rules);
  $("tray-group").hidden = state.loose.length === 0;
  $("tray").replaceChildren(...state.loose.map((id) => tileButton(id, actions)));
  const { count, needed, winning } = tileCount(state);
  $("tile-count").textContent = winning ? t("count", { n: count - 1, needed }) : t("count_open", { n: count, needed });
  $("tile-count").classList.toggle("off", count !== needed);
  renderSuggestions(actions);
  $("hand-summary").textContent = handSummary(handRequest(state));
  $("undo-clear").hidden = !state.undo;
}

export function handSummary(hand) {
  const melds = hand.melds.map((meld) => `${meld.concealed ? "暗" : ""}${meld.tiles}`).join(" ");
  return [hand.concealed, melds, hand.flowers && `花 ${hand.flowers}`, hand.winning_tile && `★ ${hand.winning_tile}`]
    .filter(Boolean).join(" · ");
}

function tileButton(id, { onTile }) {
  const tile = state.tiles.get(id);
  const element = button("tile-button", "", () => onTile(id));
  element.dataset.tile = id;
  element.classList.toggle("low", isLow(tile));
  element.classList.toggle("winning", id === state.winning);
  element.classList.toggle("unseen", !tile.box);
  element.setAttribute("aria-label", `${buttonName(tile.code)}${id === state.winning ? ` (${t("winning")})` : ""}`);
  element.append(tileFace(tile.code));
  return element;
}

function renderGroup(container, ids, actions) {
  const add = button("add-tile", "+", () => actions.onAdd(ids));
  add.setAttribute("aria-label", t("add_tile"));
  container.replaceChildren(...ids.map((id) => tileButton(id, actions)), add);
}

function select(label, options, value, onChange) {
  const element = document.createElement("select");
  element.setAttribute("aria-label", label);
  for (const [optionValue, text, disabled] of options) {
    const option = new Option(text, optionValue);
    option.disabled = Boolean(disabled);
    element.add(option);
  }
  element.value = value;
  element.addEventListener("change", () => onChange(element.value));
  return element;
}

function renderMelds(actions, rules) {
  const playing = allCodes().filter((code) => !code.endsWith("f") && code !== "back");
  $("melds").replaceChildren(...state.melds.map((meld, index) => {
    const group = document.createElement("div");
    group.className = "group meld";
    const head = document.createElement("div");
    head.className = "group-head";
    const kinds = MELD_KINDS.map((kind) => [kind, t(kind), kind === "chow" && rules.chow === false]);
    head.append(select(t("meld_kind", { n: index + 1 }), kinds, meld.kind, (kind) => { meld.kind = kind; actions.onChange(); }));
    if (meld.kind === "kong") {
      const seats = document.createElement("select");
      seatOptions(seats, true);
      seats.options[0].text = `${t("fed_by")} —`;
      const fedBy = select(t("fed_by_aria"), [...seats.options].map((option) => [option.value, option.text]), meld.fed_by,
        (seat) => { meld.fed_by = seat; actions.onChange(); });
      fedBy.classList.add("fed-by"); // the one place to say who fed a kong: a refusal about it points here
      head.append(fedBy);
    }
    const codes = meld.tiles.map((id) => state.tiles.get(id).code);
    if (meld.kind === "kong_concealed" && codes.length && codes.every((code) => code === "back")) {
      const faces = [["", t("kong_face")], ...playing.map((code) => [code, tileName(code)])];
      head.append(select(t("kong_face_aria"), faces, meld.face ?? "", (code) => { meld.face = code || null; actions.onChange(); }));
    }
    head.append(button("quiet", t("dissolve"), () => { dissolveMeld(state, index); actions.onChange(); }));
    const tiles = document.createElement("div");
    tiles.className = "tiles";
    renderGroup(tiles, meld.tiles, actions);
    group.append(head, tiles);
    return group;
  }));
}

function describeSuggestion(suggestion) {
  return suggestion.changes.map((change) => `${tileName(change.from)} → ${tileName(change.to)}`).join(", ");
}

function renderSuggestions(actions) {
  const suggestions = (state.recognition?.suggestions ?? []).filter((suggestion) => !isApplied(state, suggestion));
  const restored = Boolean(state.recognition?.confirmation); // suggestions are about the machine's reading
  $("suggestions-section").hidden = restored || suggestions.length === 0;
  const all = restored ? [] : suggestions.flatMap((suggestion) => suggestion.changes.map((change) => change.tile));
  $("suggestions").replaceChildren(...suggestions.map((suggestion) => {
    const item = document.createElement("li");
    const ids = suggestion.changes.map((change) => change.tile);
    // a fix no likelier than not is offered without a figure: "(likely 3%)" read as a recommendation (issue 50)
    const likely = suggestion.p !== undefined && suggestion.p >= LIKELY;
    const text = describeSuggestion(suggestion) + (likely ? ` (${t("suggestion_p", { p: Math.round(100 * suggestion.p) })})` : "");
    const apply = button("", t("apply"), () => {
      applySuggestion(state, suggestion);
      actions.onChange();
      // the button went with the fix: focus stays in the list (the next fix), else moves on to Score
      ($("suggestions").querySelector("button") ?? $("score-button")).focus();
    });
    apply.setAttribute("aria-label", `${t("apply")}: ${text}`);
    for (const [event, lit] of [["pointerenter", ids], ["focus", ids], ["pointerleave", all], ["blur", all]]) {
      item.addEventListener(event, () => highlightBoxes(lit), true);
    }
    item.append(text, " ", apply);
    return item;
  }));
  highlightBoxes(all);
}
