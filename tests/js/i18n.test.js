// The page's words: both languages say everything, and errors are plain words keyed by code.
import assert from "node:assert/strict";
import { test } from "node:test";

import { ERROR_CODES, WORD_KEYS, errorText, setLanguage, t } from "../../api/static/i18n.js";

test("English and Chinese have the same phrases and the same error codes", () => {
  assert.deepEqual([...WORD_KEYS.zh].sort(), [...WORD_KEYS.en].sort());
  assert.deepEqual([...ERROR_CODES.zh].sort(), [...ERROR_CODES.en].sort());
});

test("an API refusal is worded by its code, never its field path", () => {
  const refusal = { errors: [{ code: "bad_request", message: "context.stake.unit: Input should be a valid number" }] };
  setLanguage("en");
  assert.doesNotMatch(errorText(refusal), /context\.stake/);
  assert.match(errorText(refusal), /numbers you typed/);
  setLanguage("zh");
  assert.match(errorText(refusal), /数字/);
  assert.match(errorText({ errors: [{ code: "made_up", message: "x" }] }), /made_up/);
  setLanguage("en");
  assert.match(errorText({ errors: [], code: "network" }), /connection/);
});

test("placeholders are filled", () => {
  setLanguage("en");
  assert.equal(t("count", { n: 13, needed: 14 }), "13 + 1 of 14");
});
