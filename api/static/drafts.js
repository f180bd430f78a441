// A photo's unsaved fixes, kept on this device until they are saved (issue 35: leaving a photo lost them): one
// localStorage entry per photo id, written on every change, read back when the photo is opened again, removed on
// save. Pure functions of a state and a Storage, so node tests them.

const PREFIX = "fanshot-draft-";
const HAND_KEYS = ["concealed", "flowers", "melds", "loose", "winning", "nextId"];

/** What a draft keeps: every tile, where each sits, the ETag its edits started from (so a save over work saved
 *  elsewhere meanwhile is still refused) and the form's `choices` (ruleset, options, context). */
export function draftOf(state, choices) {
  const tiles = [...state.tiles.values()].filter((tile) => !tile.pending) // a box still being drawn is not a fix
    .map(({ pending: _, ...tile }) => tile);
  const kept = new Set(tiles.map((tile) => tile.id));
  const hand = structuredClone(Object.fromEntries(HAND_KEYS.map((key) => [key, state[key]])));
  for (const key of ["concealed", "flowers", "loose"]) hand[key] = hand[key].filter((id) => kept.has(id));
  for (const meld of hand.melds) meld.tiles = meld.tiles.filter((id) => kept.has(id));
  return { ...hand, tiles, etag: state.etag, choices };
}

/** Put a draft's tiles and hand into `state` (its recognition loaded first); the draft's form choices. */
export function applyDraft(state, draft) {
  state.tiles.clear();
  for (const tile of draft.tiles) state.tiles.set(tile.id, tile);
  Object.assign(state, structuredClone(Object.fromEntries(HAND_KEYS.map((key) => [key, draft[key]]))));
  state.etag = draft.etag;
  return draft.choices;
}

/** Keep `draft` for photo `id`; false where the device refuses (storage full or off). */
export function keepDraft(storage, id, draft) {
  try {
    storage.setItem(PREFIX + id, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

/** The draft kept for photo `id`, or null (none, or unreadable). */
export function readDraft(storage, id) {
  try {
    return JSON.parse(storage.getItem(PREFIX + id));
  } catch {
    return null;
  }
}

export const dropDraft = (storage, id) => storage.removeItem(PREFIX + id);
