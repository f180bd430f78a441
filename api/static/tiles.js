// Tile codes, compact notation and tile pictures drawn with HTML + CSS (no image assets).
// Codes as in scoring/tiles.py: 1m-9m, 1p-9p, 1s-9s, 1z-7z (E S W N 白 發 中), 1f-8f, and `back`.

const NUMERALS = "一二三四五六七八九";
const HONOURS = { 1: ["東", "East"], 2: ["南", "South"], 3: ["西", "West"], 4: ["北", "North"],
  5: ["白", "White dragon"], 6: ["發", "Green dragon"], 7: ["中", "Red dragon"] };
const FLOWERS = { 1: ["梅", "Plum"], 2: ["蘭", "Orchid"], 3: ["菊", "Chrysanthemum"], 4: ["竹", "Bamboo"],
  5: ["春", "Spring"], 6: ["夏", "Summer"], 7: ["秋", "Autumn"], 8: ["冬", "Winter"] };
const SUITS = { m: ["萬", "Characters"], p: ["筒", "Dots"], s: ["索", "Bamboo"] };

export const ALL_CODES = [
  ..."mps".split("").flatMap((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => `${n}${suit}`)),
  ...[1, 2, 3, 4, 5, 6, 7].map((n) => `${n}z`),
  ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}f`),
  "back",
];

export const SEATS = ["1z", "2z", "3z", "4z"];

export function tileName(code) {
  if (code === "back") return "face-down tile";
  const n = Number(code[0]);
  const suit = code[1];
  if (suit === "z") return `${HONOURS[n][0]} ${HONOURS[n][1]}`;
  if (suit === "f") return `${FLOWERS[n][0]} ${FLOWERS[n][1]}`;
  return `${NUMERALS[n - 1]}${SUITS[suit][0]} ${n} ${SUITS[suit][1]}`;
}

export function seatName(seat) {
  const [zh, en] = HONOURS[Number(seat[0])];
  return `${zh} ${en}${seat === "1z" ? " (dealer)" : ""}`;
}

/** A tile picture: a <span> styled by suit, with the face characters. */
export function tileFace(code) {
  const face = document.createElement("span");
  face.className = `tile suit-${code === "back" ? "back" : code[1]}`;
  face.dataset.code = code;
  face.title = tileName(code);
  face.setAttribute("aria-label", tileName(code));
  if (code === "back") return face;
  const n = Number(code[0]);
  const suit = code[1];
  let top = "";
  let bottom = "";
  if (suit === "m") [top, bottom] = [NUMERALS[n - 1], SUITS.m[0]];
  else if (suit === "p" || suit === "s") [top, bottom] = [String(n), SUITS[suit][0]];
  else if (suit === "z") top = HONOURS[n][0];
  else [top, bottom] = [FLOWERS[n][0], String(((n - 1) % 4) + 1)];
  if (suit === "z") face.classList.add(`honour-${n}`);
  face.innerHTML = `<b>${top}</b>${bottom ? `<small>${bottom}</small>` : ""}`;
  return face;
}

const ORDER = "mpszf";

export function sortKey(code) {
  return code === "back" ? 99 : ORDER.indexOf(code[1]) * 10 + Number(code[0]);
}

/** Codes → compact notation in canonical order: ["1m","3m","1z"] → "13m1z". Backs are not tiles of a hand. */
export function notation(codes) {
  const bySuit = {};
  for (const code of codes.filter((c) => c !== "back").sort((a, b) => sortKey(a) - sortKey(b))) {
    bySuit[code[1]] = (bySuit[code[1]] || "") + code[0];
  }
  return ORDER.split("").filter((s) => bySuit[s]).map((s) => bySuit[s] + s).join("");
}

/** Compact notation → codes, in order: "123m11z" → ["1m","2m","3m","1z","1z"]. Unknown characters are skipped. */
export function parseNotation(text) {
  const codes = [];
  let digits = "";
  for (const char of text || "") {
    if (/[0-9]/.test(char)) digits += char;
    else if (ORDER.includes(char)) {
      for (const digit of digits) codes.push(digit + char);
      digits = "";
    }
  }
  return codes;
}
