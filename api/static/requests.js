// The hand and the confirmation the page sends, built from the state (no DOM).
import { notation } from "./tiles.js";

const codesOf = (state, ids) => ids.map((id) => state.tiles.get(id).code);

/** A score-request meld. A concealed kong's backs stand for its face: the face tile it shows, or the one the
 *  player named (`meld.face`) when it shows only backs. */
export function meldRequest(codes, meld) {
  if (meld.kind === "kong_concealed") {
    const face = meld.face || codes.find((code) => code !== "back");
    return { kind: "kong", tiles: face ? notation([face, face, face, face]) : "", concealed: true };
  }
  if (meld.kind === "kong_added") return { kind: "kong", tiles: notation(codes), added: true };
  if (meld.kind === "kong") return { kind: "kong", tiles: notation(codes), ...(meld.fed_by && { fed_by: meld.fed_by }) };
  return { kind: meld.kind, tiles: notation(codes) };
}

/** The score request's hand; `withFlowers: false` leaves the flowers out (a rule set without flowers). */
export function handRequest(state, { withFlowers = true } = {}) {
  return {
    concealed: notation(codesOf(state, state.concealed)),
    melds: state.melds.filter((meld) => meld.tiles.length).map((meld) => meldRequest(codesOf(state, meld.tiles), meld)),
    flowers: withFlowers ? notation(codesOf(state, state.flowers)) : "",
    winning_tile: state.winning === null ? "" : state.tiles.get(state.winning).code,
  };
}

/** The confirmation: every tile but one whose box is still being drawn. Those with a box are the label, in the
 *  hand or not; those without (added by hand) have their place in the hand all the same. `hand_tiles` says where
 *  each sits by index into `tiles`, the one source the server derives the hand from; each tile names the
 *  detection it is, and `scoring` (ruleset, options, context) is kept, so a reload restores it all. */
export function confirmationRequest(state, scoring = {}) {
  const { width, height } = state.recognition.image;
  const kept = [...state.tiles.values()].filter((tile) => !tile.pending);
  const index = new Map(kept.map((tile, position) => [tile.id, position]));
  const indices = (ids) => ids.filter((id) => index.has(id)).map((id) => index.get(id));
  const clamp = (value, limit) => Math.min(Math.max(value, 0), limit);
  const tiles = kept.map(({ code, box, detection }) => ({
    code, box: box && [clamp(box[0], width), clamp(box[1], height), clamp(box[2], width), clamp(box[3], height)],
    ...(detection != null && { detection }) }));
  const melds = state.melds.filter((meld) => meld.tiles.length).map((meld) => ({
    ...meldRequest(codesOf(state, meld.tiles), meld), tiles: indices(meld.tiles), ...(meld.face && { face: meld.face }) }));
  return {
    tiles,
    hand_tiles: { concealed: indices(state.concealed), melds, flowers: indices(state.flowers), loose: indices(state.loose),
      winning: index.get(state.winning) ?? null },
    ...scoring,
  };
}
