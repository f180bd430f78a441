// The page's words: every language says everything, and errors are plain words keyed by code.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ERROR_CODES, LANGUAGES, PLURAL_FORMS, REFUSAL_FIELDS, WORD_KEYS, errorText, phrases, setLanguage, t, tParts } from "../../api/static/i18n.js";

test("each language has every key of the English tables: phrases, error codes and refusals' fields", () => {
  assert.deepEqual(LANGUAGES, ["en", "zh-Hans"]);
  for (const lang of LANGUAGES) {
    assert.deepEqual([...WORD_KEYS[lang]].sort(), [...WORD_KEYS.en].sort(), lang);
    assert.deepEqual([...ERROR_CODES[lang]].sort(), [...ERROR_CODES.en].sort(), lang);
    assert.deepEqual([...REFUSAL_FIELDS[lang]].sort(), [...REFUSAL_FIELDS.en].sort(), lang);
  }
});

test("a language kept on the device under its old code is still chosen", () => {
  setLanguage("zh");
  assert.equal(t("rules"), "规则");
  setLanguage("en");
});

test("an API refusal is worded by its code, never its field path", () => {
  const refusal = { errors: [{ code: "bad_request", message: "context.stake.unit: Input should be a valid number" }] };
  setLanguage("en");
  assert.doesNotMatch(errorText(refusal), /context\.stake/);
  assert.match(errorText(refusal), /numbers you typed/);
  setLanguage("zh-Hans");
  assert.match(errorText(refusal), /数字/);
  assert.match(errorText({ errors: [{ code: "made_up", message: "x" }] }), /made_up/);
  setLanguage("en");
  assert.match(errorText({ errors: [], code: "network" }), /connection/);
});

test("a code is worded for what was asked for: a game not found is not a photo not found", () => {
  const missing = { errors: [{ code: "not_found", message: "no game with id 'x'" }] };
  setLanguage("en");
  assert.match(errorText(missing, "game"), /game/);
  assert.match(errorText(missing), /photo/);
  setLanguage("zh-Hans");
  assert.match(errorText(missing, "game"), /这一局/);
  setLanguage("en");
});

test("placeholders are filled", () => {
  setLanguage("en");
  assert.equal(t("count", { n: 13, needed: 14 }), "13 + 1 of 14");
});

test("a phrase in pieces puts a value that is not text (a tile picture) where the language puts it", () => {
  const tile = { picture: "5m" };
  setLanguage("en");
  assert.deepEqual(tParts("waits_discard_value", { n: 3, points: 8 }), [" (", "3", " left, up to ", "8", " pts)"]);
  assert.deepEqual(tParts("waits_discard_ready", { tile, distance: "ready", tiles: tile }).filter((piece) => piece === tile).length, 2);
  setLanguage("zh-Hans");
  assert.equal(tParts("waits_discard_ready", { tile, distance: "听牌", tiles: tile })[1], tile);
  setLanguage("en");
});

test("counts take their plural form in English and none in Chinese (issue 35: 'Read 1 tiles', '1 points')", () => {
  setLanguage("en");
  assert.deepEqual([t("read", { n: 1 }), t("read", { n: 2 }), t("read", { n: 0 })],
    ["Read 1 tile.", "Read 2 tiles.", "Read 0 tiles."]);
  assert.deepEqual([t("points", { n: 1 }), t("points", { n: 8 }), t("fixed_points", { n: 1 })], ["point", "points", "1 point"]);
  setLanguage("zh-Hans");
  assert.deepEqual([t("read", { n: 1 }), t("points", { n: 1 })], [t("read", { n: 2 }).replace("2", "1"), "分"]);
  setLanguage("en");
});

test("every plural form is a form of a phrase that exists, with the same placeholders but the count", () => {
  const holes = (words) => new Set([...words.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((name) => name !== "n"));
  for (const [lang, forms] of Object.entries(PLURAL_FORMS)) {
    for (const [key, byCategory] of Object.entries(forms)) {
      const base = phrases(lang)[key];
      assert.ok(base, `${lang}: ${key}`);
      for (const words of Object.values(byCategory)) assert.deepEqual(holes(words), holes(base), `${lang}: ${key}`);
    }
  }
});
