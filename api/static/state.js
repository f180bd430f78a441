// The page's state and the changes made to it: pure functions of a state object (no DOM), so node tests them.
// The tiles map holds every tile of the photo (its label); the hand's groups hold tile ids.
import { ALL_CODES, parseNotation } from "./tiles.js";

export const LOW_CONFIDENCE = 0.6;
const FIRST_ADDED_ID = 100000; // ids of detections are their index; tiles added by hand count up from here

export function createState() {
  return {
    recognition: null,
    tiles: new Map(), // id → {id, code, box, confidence, alternatives, edited}
    concealed: [], // tile ids, in the order shown
    flowers: [],
    melds: [], // {kind, tiles: [id], fed_by}
    winning: null, // tile id
    marking: null, // id of the tile whose box is being drawn on the photo
    rulesets: [],
    nextId: FIRST_ADDED_ID,
  };
}

/** The one state the page's modules share. */
export const state = createState();

export function addTile(state, code) {
  const id = state.nextId++;
  state.tiles.set(id, { id, code, box: null, confidence: 1, alternatives: [], edited: true });
  return id;
}

export function isLow(tile) {
  return !tile.edited && tile.confidence < LOW_CONFIDENCE;
}

/** A recognition result's tiles, laid out as its proposed hand. */
export function loadRecognition(state, recognition) {
  state.recognition = recognition;
  state.tiles.clear();
  state.nextId = FIRST_ADDED_ID;
  recognition.tiles.forEach((tile, index) => {
    state.tiles.set(index, {
      id: index, code: tile.code, box: tile.box, confidence: tile.confidence ?? 1,
      alternatives: (tile.alternatives || []).filter((alternative) => ALL_CODES.includes(alternative.code)),
      edited: false,
    });
  });
  placeFromHand(state, recognition.hand || {}, recognition.groups || []);
}

/** Lay the detections out as the proposed hand says: each hand tile takes a detection of the same code, from
 *  the recogniser's group of that kind where it can (a concealed kong may take face-down tiles); detections
 *  the hand leaves out stay visible as standing tiles. */
export function placeFromHand(state, hand, groups) {
  const free = [...state.tiles.keys()];
  const inGroups = (kind) => new Set(groups.filter((group) => group.kind === kind).flatMap((group) => group.tiles));
  const take = (code, preferred, allowBack = false) => {
    const find = (wanted, where) => free.findIndex((id) => state.tiles.get(id).code === wanted && (!where || where.has(id)));
    let index = find(code, preferred);
    if (index < 0) index = find(code);
    if (index < 0 && allowBack) index = find("back", preferred);
    if (index < 0 && allowBack) index = find("back");
    return index >= 0 ? free.splice(index, 1)[0] : addTile(state, code);
  };
  const melded = inGroups("meld");
  state.melds = (hand.melds || []).map((meld) => ({
    kind: meld.kind === "kong" && meld.concealed ? "kong_concealed" : meld.kind === "kong" && meld.added ? "kong_added" : meld.kind,
    tiles: parseNotation(meld.tiles).map((code) => take(code, melded, Boolean(meld.concealed))),
    fed_by: meld.fed_by || "",
  }));
  const flowers = inGroups("flowers");
  state.flowers = parseNotation(hand.flowers).map((code) => take(code, flowers));
  const concealed = inGroups("concealed");
  state.concealed = parseNotation(hand.concealed).map((code) => take(code, concealed));
  for (const id of free) (state.tiles.get(id).code.endsWith("f") ? state.flowers : state.concealed).push(id);
  const winners = state.concealed.filter((id) => state.tiles.get(id).code === hand.winning_tile);
  state.winning = winners.at(-1) ?? state.concealed.at(-1) ?? null;
}

export function groupOf(state, id) {
  if (state.concealed.includes(id)) return state.concealed;
  if (state.flowers.includes(id)) return state.flowers;
  return state.melds.find((meld) => meld.tiles.includes(id))?.tiles ?? null;
}

export function placedIds(state) {
  return new Set([...state.concealed, ...state.flowers, ...state.melds.flatMap((meld) => meld.tiles)]);
}

export function removeTile(state, id) {
  const group = groupOf(state, id);
  if (group) group.splice(group.indexOf(id), 1);
  if (state.winning === id) state.winning = state.concealed.at(-1) ?? null;
}

export function moveTile(state, id, target) {
  removeTile(state, id);
  target.push(id);
  if (state.winning === null && target === state.concealed) state.winning = id;
}

export function newMeld(state) {
  const meld = { kind: "pung", tiles: [], fed_by: "" };
  state.melds.push(meld);
  return meld;
}

export function dissolveMeld(state, index) {
  state.concealed.push(...state.melds[index].tiles);
  state.melds.splice(index, 1);
}

export function clearHand(state) {
  Object.assign(state, { concealed: [], flowers: [], melds: [], winning: null });
}

export function setCode(state, id, code) {
  const tile = state.tiles.get(id);
  tile.code = code;
  tile.edited = true;
}

/** A suggestion (`{changes: [{tile, from, to}], p, text}`, vision/suggest.py) counts as applied once every tile
 *  it changes shows its new code. */
export function isApplied(state, suggestion) {
  const changes = suggestion.changes ?? [];
  return changes.length > 0 && changes.every((change) => state.tiles.get(change.tile)?.code === change.to);
}

export function applySuggestion(state, suggestion) {
  for (const change of suggestion.changes ?? []) if (state.tiles.has(change.tile)) setCode(state, change.tile, change.to);
}
