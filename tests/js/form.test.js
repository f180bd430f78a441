// The rule set a page starts with: the one a region's tables play, where the server lists it (issue 49).
import assert from "node:assert/strict";
import { test } from "node:test";

import { startingRuleset } from "../../api/static/form.js";

const listed = (...names) => names.map((name) => ({ name }));

test("a Hong Kong or Macau browser starts on 香港舊章 where the server has it; others on the first listed", () => {
  const five = listed("jipinghu", "qianggang", "tuidaohu", "xinzhang", "hongkong");
  const start = (lang) => startingRuleset(five, lang);
  assert.deepEqual(["zh-HK", "zh-Hant-HK", "zh-MO", "zh-TW", "zh-CN", "en-HK", "en", ""].map(start),
    ["hongkong", "hongkong", "hongkong", "jipinghu", "jipinghu", "jipinghu", "jipinghu", "jipinghu"]);
  assert.equal(startingRuleset(listed("jipinghu", "qianggang"), "zh-HK"), "jipinghu");
  assert.equal(startingRuleset([], "zh-HK"), undefined);
});
