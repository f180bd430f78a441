// Every word the page's modules show goes through i18n.js and exists in both languages; each language's
// phrases are in that language only (no English left in a Chinese phrase, no Chinese gloss in an English one).
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { test } from "node:test";

import { ERROR_CODES, LANGUAGES, WORD_KEYS, phrases } from "../../api/static/i18n.js";

const STATIC = new URL("../../api/static/", import.meta.url);
const sources = Object.fromEntries(readdirSync(STATIC).filter((name) => /\.(js|html)$/.test(name) && name !== "i18n.js")
  .map((name) => [name, readFileSync(new URL(name, STATIC), "utf8")]));

/** The word keys a source names: t("key"), tParts("key"), data-i18n*="key", and { key: "key" } (state.js's warnings). */
function keysUsed(source) {
  const patterns = [/\bt(?:Parts)?\(\s*"(\w+)"/g, /data-i18n(?:-aria|-alt)?="(\w+)"/g, /dataset\.i18n = "(\w+)"/g,
    /\bkey: "(\w+)"/g];
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[1]));
}

for (const [name, source] of Object.entries(sources)) {
  test(`${name}: every word it names exists in every language`, () => {
    for (const lang of LANGUAGES) {
      const missing = keysUsed(source).filter((key) => !WORD_KEYS[lang].includes(key));
      assert.deepEqual(missing, [], `${name} (${lang})`);
    }
  });
}

test("every phrase is used somewhere on the page (no dead words)", () => {
  const i18n = readFileSync(new URL("i18n.js", STATIC), "utf8");
  const everything = [...Object.values(sources), i18n.slice(i18n.indexOf("export const LANGUAGES"))].join("\n");
  const unused = WORD_KEYS.en.filter((key) => key !== "errors" && !everything.includes(`"${key}"`));
  assert.deepEqual(unused, []);
});

const CHINESE = /[\u3400-\u9fff]/;
// Chinese a module may write itself, and why: marks of the compact notation, the same in either language.
const NOTATION = { "hand.js": ["暗", "花"] };

test("no module writes words of its own: no Chinese outside i18n.js (where English would sit beside it)", () => {
  for (const [name, source] of Object.entries(sources)) {
    if (!name.endsWith(".js")) continue;
    const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/.*$/gm, "");
    const chinese = [...code.matchAll(/[\u3400-\u9fff]+/g)].map((match) => match[0])
      .filter((word) => !(NOTATION[name] ?? []).includes(word));
    assert.deepEqual(chinese, [], name);
  }
});

// Where a language may name the other: the switch to it, the app's name, and file formats and units.
const ENGLISH_WORD = /[A-Za-z]+/g;
const EN_MAY_SAY_CHINESE = new Set(["title", "switch_language"]);
const ZH_MAY_SAY = new Set(["Fanshot", "English", "YOLO", "zip", "API", "CSV", "MB", "F"]); // F: the F1 score

test("English phrases have no Chinese, Chinese phrases no English", () => {
  const english = Object.entries(phrases("en")).filter(([key, text]) => !EN_MAY_SAY_CHINESE.has(key) && CHINESE.test(text));
  assert.deepEqual(english, []);
  for (const lang of LANGUAGES.filter((code) => code.startsWith("zh"))) {
    const chinese = Object.entries(phrases(lang)).filter(([, text]) =>
      (text.replace(/\{\w+\}/g, "").match(ENGLISH_WORD) ?? []).some((word) => !ZH_MAY_SAY.has(word)));
    assert.deepEqual(chinese, [], lang);
  }
});

test("errors are worded in every language for the same codes", () => {
  for (const lang of LANGUAGES) assert.deepEqual([...ERROR_CODES[lang]].sort(), [...ERROR_CODES.en].sort(), lang);
});
