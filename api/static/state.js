// The page's state and the changes made to it: pure functions of a state object (no DOM), so node tests them.
// `tiles` holds every tile of the photo, and every one with a box is in the label whether or not it is in the
// hand; the hand's groups (standing, melds, flowers) and the tray of loose tiles hold tile ids.

export const LOW_CONFIDENCE = 0.6;
export const HAND_TILES = 14; // a winning hand: standing tiles + 3 per meld (a kong's fourth is its replacement)
const FIRST_ADDED_ID = 100000; // ids of detections are their index; tiles added by hand count up from here

export function createState() {
  return {
    recognition: null, // the recognition result the photo got, with its id
    etag: null, // the server's tag of the saved confirmation read: a save over a newer one is refused (412)
    tiles: new Map(), // id → {id, code, box, detection, confidence, alternatives, edited}; detection: its index in
    // the recognition's tiles, null for one added by hand (box null too unless drawn)
    concealed: [], // tile ids, in the order shown
    flowers: [],
    melds: [], // {kind, tiles: [id], fed_by, face}
    loose: [], // tiles in the photo that are not part of the hand
    winning: null, // tile id
    marking: null, // id of the tile whose box is being drawn on the photo
    undo: null, // the hand before Clear, until the next change
    nextId: FIRST_ADDED_ID,
  };
}

/** The one state the page's modules share. */
export const state = createState();

/** The page's own state beside the hand's (app.js keeps it): the photo shown and the work on it not yet saved. */
export const page = {
  rulesets: [], // GET /v1/rulesets
  redrawResult: null, // draws the result on screen (or why there is none) again, in another language
  photoToken: 0, // the photo being read; an answer about an older one is dropped
  photoUrl: null, // the object URL of the photo shown from this device
  shownPhoto: null, // the id of the photo the page shows or is loading (the address's #id), or null
  unsaved: false, // the photo has fixes not saved yet (kept as a draft on this device meanwhile)
  edits: 0, // counts fixes: a save answered after a later fix leaves that fix unsaved
  saving: false, // a save is on its way
  retryFile: null, // the photo whose upload failed for a reason trying again may cure
  waitingShot: false, // the page shows a shot kept on this device until the server is back (outbox.js)
  keptNotes: [], // what the last sending of kept shots has to say: [phrase key, its value]
};

const HAND_KEYS = ["concealed", "flowers", "melds", "loose", "winning"];

/** Forget the photo and everything read from it (a new photo is on its way). */
export function resetPhoto(state) {
  Object.assign(state, { recognition: null, etag: null, marking: null, undo: null, nextId: FIRST_ADDED_ID },
    { concealed: [], flowers: [], melds: [], loose: [], winning: null });
  state.tiles.clear();
}

export function addTile(state, code, box = null) {
  const id = state.nextId++;
  state.tiles.set(id, { id, code, box, detection: null, confidence: 1, alternatives: [], edited: true });
  return id;
}

export const isBack = (tile) => tile.code === "back";

export function isLow(tile) {
  return !tile.edited && tile.confidence < LOW_CONFIDENCE;
}

const meldKind = (meld) => (meld.kind === "kong" && meld.concealed ? "kong_concealed"
  : meld.kind === "kong" && meld.added ? "kong_added" : meld.kind);

/** A recognition result's tiles, placed by index as its `hand_tiles` says; with a saved confirmation, its tiles
 *  (those the photo does not show too, `box: null`) placed by index as they were saved, each with the alternatives
 *  of the detection it is (`detection`, an index too: nothing is matched by box). */
export function loadRecognition(state, recognition) {
  resetPhoto(state);
  state.recognition = recognition;
  const confirmation = recognition.confirmation;
  const detected = recognition.tiles;
  (confirmation?.tiles ?? detected).forEach((tile, index) => {
    const detection = confirmation ? tile.detection ?? null : index;
    const read = detection === null ? undefined : detected[detection];
    state.tiles.set(index, {
      id: index, code: tile.code, box: tile.box, detection, confidence: read?.confidence ?? 1,
      alternatives: read?.alternatives ?? [], edited: Boolean(confirmation),
    });
  });
  const placed = confirmation ? confirmation.hand_tiles : recognition.hand_tiles;
  placeTiles(state, placed ?? { concealed: [...state.tiles.keys()] }, (confirmation ?? recognition).hand ?? {});
}

function placeTiles(state, placed, hand) {
  const known = (ids) => (ids ?? []).filter((id) => state.tiles.has(id));
  state.concealed = known(placed.concealed);
  state.flowers = known(placed.flowers);
  state.loose = known(placed.loose);
  state.melds = (placed.melds ?? []).map((meld) => ({
    kind: meldKind(meld), tiles: known(meld.tiles), fed_by: meld.fed_by ?? "", face: meld.face ?? null,
  }));
  const seen = new Set([...placedIds(state), ...state.loose]);
  for (const id of state.tiles.keys()) if (!seen.has(id)) state.loose.push(id); // nothing is lost
  // the winning tile by index; a confirmation saved before `hand_tiles.winning` names it by code alone
  const named = state.concealed.filter((id) => state.tiles.get(id).code === hand.winning_tile);
  state.winning = state.concealed.includes(placed.winning) ? placed.winning : named.at(-1) ?? null;
  pickWinning(state);
}

/** The winning tile is a standing face-up tile: keep it, or take the last one. */
export function pickWinning(state) {
  const candidates = state.concealed.filter((id) => !isBack(state.tiles.get(id)));
  if (!candidates.includes(state.winning)) state.winning = candidates.at(-1) ?? null;
}

export function setWinning(state, id) {
  if (state.concealed.includes(id) && !isBack(state.tiles.get(id))) state.winning = id;
}

export function groupOf(state, id) {
  for (const group of [state.concealed, state.flowers, state.loose]) if (group.includes(id)) return group;
  return state.melds.find((meld) => meld.tiles.includes(id))?.tiles ?? null;
}

/** Ids of the hand's tiles (not the tray's). */
export function placedIds(state) {
  return [...state.concealed, ...state.flowers, ...state.melds.flatMap((meld) => meld.tiles)];
}

function changed(state) {
  state.undo = null;
}

function takeOut(state, id) {
  const group = groupOf(state, id);
  if (group) group.splice(group.indexOf(id), 1);
}

/** Out of the hand: a tile on the photo goes to the tray (it stays in the label); one added by hand is gone. */
export function removeTile(state, id) {
  takeOut(state, id);
  if (state.tiles.get(id).box) state.loose.push(id);
  else state.tiles.delete(id);
  pickWinning(state);
  changed(state);
}

/** Not a tile at all (a false detection): out of the hand and the label. */
export function deleteTile(state, id) {
  takeOut(state, id);
  state.tiles.delete(id);
  pickWinning(state);
  changed(state);
}

export function moveTile(state, id, target) {
  takeOut(state, id);
  target.push(id);
  if (state.winning === null && target === state.concealed) setWinning(state, id);
  pickWinning(state);
  changed(state);
}

export function newMeld(state) {
  const meld = { kind: "pung", tiles: [], fed_by: "", face: null };
  state.melds.push(meld);
  changed(state);
  return meld;
}

export function dissolveMeld(state, index) {
  state.concealed.push(...state.melds[index].tiles);
  state.melds.splice(index, 1);
  pickWinning(state);
  changed(state);
}

/** Empty the hand: its tiles go to the tray, so the label keeps them; `undoClear` puts them back. */
export function clearHand(state) {
  const hand = structuredClone(Object.fromEntries(HAND_KEYS.map((key) => [key, state[key]])));
  const ids = placedIds(state);
  const dropped = ids.map((id) => state.tiles.get(id)).filter((tile) => !tile.box);
  Object.assign(state, { concealed: [], flowers: [], melds: [], winning: null });
  for (const id of ids) {
    if (state.tiles.get(id).box) state.loose.push(id);
    else state.tiles.delete(id);
  }
  state.undo = { hand, dropped };
}

/** A hand typed in notation (POST /v1/notation's tiles) in place of the hand: its tiles on the photo go to the tray
 *  as Clear puts them (Undo brings them back), the typed ones come without a box. */
export function typeHand(state, { concealed, melds }) {
  clearHand(state);
  const added = (codes) => codes.map((code) => addTile(state, code));
  state.concealed = added(concealed);
  state.melds = melds.map((meld) => ({ kind: meldKind(meld), tiles: added(meld.tiles), fed_by: meld.fed_by ?? "", face: null }));
  pickWinning(state);
}

export function undoClear(state) {
  if (!state.undo) return false;
  Object.assign(state, state.undo.hand);
  for (const tile of state.undo.dropped) state.tiles.set(tile.id, tile);
  state.undo = null;
  return true;
}

/** Why saving should be confirmed first, or null: the label holds far fewer tiles than the photo showed
 *  (under half), or the hand is empty while the photo has tiles. */
export function saveWarning(state) {
  const labelled = [...state.tiles.values()].filter((tile) => tile.box).length;
  const detected = state.recognition?.tiles.length ?? 0;
  if (2 * labelled < detected) return { key: "confirm_few_tiles", labelled, detected };
  if (placedIds(state).length === 0 && labelled > 0) return { key: "confirm_no_hand", labelled, detected };
  return null;
}

export function setCode(state, id, code) {
  const tile = state.tiles.get(id);
  tile.code = code;
  tile.edited = true;
  pickWinning(state);
  changed(state);
}

/** Tiles in the hand, a kong counted as 3, as the count a winning hand needs: {count, needed, winning}. */
export function tileCount(state) {
  const standing = state.concealed.filter((id) => !isBack(state.tiles.get(id))).length;
  return { count: standing + 3 * state.melds.filter((meld) => meld.tiles.length).length, needed: HAND_TILES,
    winning: state.winning !== null };
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
