// The tile vocabulary as GET /v1/tiles serves it (scoring/tiles.py), for tests without a server.
import { setVocabulary } from "../../api/static/tiles.js";

const SUITS = { m: ["万", "Characters", "Character"], p: ["筒", "Dots", "Dot"], s: ["索", "Bamboo", "Bamboo"] };
const HONOURS = ["东 East", "南 South", "西 West", "北 North", "白 White Dragon", "發 Green Dragon", "中 Red Dragon"];
const FLOWERS = ["梅 Plum", "兰 Orchid", "菊 Chrysanthemum", "竹 Bamboo flower", "春 Spring", "夏 Summer", "秋 Autumn", "冬 Winter"];
const TRADITIONAL = { 万: "萬", 东: "東", 兰: "蘭" };
const named = (zh, en) => ({ zh, zh_hant: zh.replace(/[万东兰]/g, (c) => TRADITIONAL[c]), en });
const split = (text) => named(text.split(" ")[0], text.split(" ").slice(1).join(" "));

export const VOCABULARY = [
  ..."mps".split("").flatMap((suit) => [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => (
    { code: `${n}${suit}`, ...named(`${"一二三四五六七八九"[n - 1]}${SUITS[suit][0]}`, `${n} ${SUITS[suit][n === 1 ? 2 : 1]}`) }))),
  ...HONOURS.map((name, n) => ({ code: `${n + 1}z`, ...split(name) })),
  ...FLOWERS.map((name, n) => ({ code: `${n + 1}f`, ...split(name) })),
  { code: "back", ...named("牌背", "Back") },
];

setVocabulary(VOCABULARY);
