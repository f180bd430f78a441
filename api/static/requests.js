// The hand and the confirmation the page sends, built from the state (no DOM).
import { notation } from "./tiles.js";
import { placedIds } from "./state.js";

const codesOf = (state, ids) => ids.map((id) => state.tiles.get(id).code);

export function meldRequest(codes, meld) {
  if (meld.kind === "kong_concealed") {
    const face = codes.find((code) => code !== "back"); // a concealed kong shows two backs
    return { kind: "kong", tiles: face ? notation([face, face, face, face]) : "", concealed: true };
  }
  if (meld.kind === "kong_added") return { kind: "kong", tiles: notation(codes), added: true };
  if (meld.kind === "kong") return { kind: "kong", tiles: notation(codes), ...(meld.fed_by && { fed_by: meld.fed_by }) };
  return { kind: meld.kind, tiles: notation(codes) };
}

export function handRequest(state) {
  return {
    concealed: notation(codesOf(state, state.concealed)),
    melds: state.melds.filter((meld) => meld.tiles.length).map((meld) => meldRequest(codesOf(state, meld.tiles), meld)),
    flowers: notation(codesOf(state, state.flowers)),
    winning_tile: state.winning === null ? "" : state.tiles.get(state.winning).code,
  };
}

export function confirmationRequest(state) {
  const { width, height } = state.recognition.image;
  const placed = placedIds(state);
  // In detection order, so a label keeps the index the recognition gave its tile.
  const tiles = [...state.tiles.values()].filter((tile) => tile.box && placed.has(tile.id)).map((tile) => {
    const [x1, y1, x2, y2] = tile.box;
    const clamp = (value, limit) => Math.min(Math.max(value, 0), limit);
    return { code: tile.code, box: [clamp(x1, width), clamp(y1, height), clamp(x2, width), clamp(y2, height)] };
  });
  return { tiles, hand: handRequest(state) };
}

/** One line summing up the hand: "123m456p · 暗1111p · 花 1f · winning 2z". */
export function handSummary(hand) {
  const melds = hand.melds.map((meld) => `${meld.concealed ? "暗" : ""}${meld.tiles}`).join(" ");
  return [hand.concealed, melds, hand.flowers && `花 ${hand.flowers}`, hand.winning_tile && `winning ${hand.winning_tile}`]
    .filter(Boolean).join(" · ");
}
