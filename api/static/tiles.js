// Tile codes, compact notation and tile pictures drawn with HTML + CSS (no image assets). The names come from
// the API's vocabulary (GET /v1/tiles, from scoring/tiles.py): setVocabulary() before anything is drawn.
import { localName, nameTilesWith, t } from "./i18n.js";

const ORDER = "mpszf";
let vocabulary = new Map(); // code → {code, zh, en}

export function setVocabulary(tiles) {
  vocabulary = new Map(tiles.map((tile) => [tile.code, tile]));
}

/** Every code, in the detector's order (back last). */
export const allCodes = () => [...vocabulary.keys()];

export const SEATS = ["1z", "2z", "3z", "4z"];

/** The tile's name in the page's language, e.g. "五万 5 Characters" in both scripts where they differ. */
export function tileName(code) {
  const tile = vocabulary.get(code);
  if (!tile) return code;
  if (code === "back") return t("back");
  return localName(tile);
}

nameTilesWith(tileName); // refusals name the tiles at fault ("more than four 五万 5 Characters")

/** A tile button's name: what it shows (the face's characters, then any `words` under it) first, where the tile's
 * name does not hold it ("4筒, 四筒 4 Dots"), so that a speech user can say what they see (WCAG 2.5.3). */
export function buttonName(code, words = "") {
  const shown = [faceOf(code).join(""), words].filter(Boolean).join(" ");
  const name = tileName(code);
  return !shown || name.replaceAll(" ", "").includes(shown.replaceAll(" ", "")) ? name : `${shown}, ${name}`;
}

export function seatName(seat) {
  return `${tileName(seat)}${seat === "1z" ? ` ${t("dealer")}` : ""}`;
}

/** The characters a tile shows: [big, small]. Suit tiles show their rank over the suit's character. */
export function faceOf(code) {
  const zh = vocabulary.get(code)?.zh ?? "";
  if (code === "back") return ["", ""];
  const suit = code[1];
  if (suit === "m") return [zh[0], zh.slice(1)];
  if (suit === "p" || suit === "s") return [code[0], zh.slice(1)];
  if (suit === "f") return [zh, String(((Number(code[0]) - 1) % 4) + 1)];
  return [zh, ""];
}

/** A tile picture: a <span> styled by suit, with the face characters. */
export function tileFace(code) {
  const face = document.createElement("span");
  face.className = `tile suit-${code === "back" ? "back" : code[1]}`;
  face.dataset.code = code;
  face.title = tileName(code);
  face.setAttribute("role", "img");
  face.setAttribute("aria-label", tileName(code));
  const [top, bottom] = faceOf(code);
  if (code[1] === "z") face.classList.add(`honour-${code[0]}`);
  if (top) face.append(Object.assign(document.createElement("b"), { textContent: top }));
  if (bottom) face.append(Object.assign(document.createElement("small"), { textContent: bottom }));
  return face;
}

export function sortKey(code) {
  return code === "back" ? 99 : ORDER.indexOf(code[1]) * 10 + Number(code[0]);
}

/** Compact notation → codes, in its order: "15m2z" → ["1m", "5m", "2z"] (text the scorer has already checked). */
export function codesOf(text) {
  return [...text.matchAll(/(\d+)([mpszf])/g)].flatMap(([, digits, suit]) => [...digits].map((digit) => `${digit}${suit}`));
}

/** Codes → compact notation in canonical order: ["1m","3m","1z"] → "13m1z". Backs are not tiles of a hand. */
export function notation(codes) {
  const bySuit = {};
  for (const code of codes.filter((c) => c !== "back").sort((a, b) => sortKey(a) - sortKey(b))) {
    bySuit[code[1]] = (bySuit[code[1]] || "") + code[0];
  }
  return ORDER.split("").filter((s) => bySuit[s]).map((s) => bySuit[s] + s).join("");
}
