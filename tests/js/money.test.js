// The money lines under the score: qianggang's three stake numbers and the parts of what each payer owes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../../api/static/i18n.js";
import { moneyLines } from "../../api/static/money.js";

const qianggang = { stake: { unit: 1, fee: 0, flower: 1, kong: 2, chicken: 3 }, per_payer: 8,
  per_payer_parts: { hand: 6, horses: 0, flowers: 2, kongs: 0 } };

test("qianggang: the stake numbers and each payer's parts (docs/RULES.md rule set 4: two flowers at 1 2 3, 8 each)", () => {
  setLanguage("en");
  assert.deepEqual(moneyLines(qianggang), ["Flower stake 1 · Kong stake 2 · Chicken stake 3",
    "Per payer 8 = hand 6 + flowers 2"]);
});

test("the same lines in Chinese, with the stake named as the form names it", () => {
  setLanguage("zh-Hans");
  assert.deepEqual(moneyLines(qianggang), ["花注 1 · 杠注 2 · 鸡胡注 3", "每家 8 = 番 6 + 花 2"]);
  setLanguage("en");
});

test("a points rule set: no stake numbers, the hand and horses", () => {
  setLanguage("en");
  const result = { stake: { unit: 1, fee: 0 }, per_payer: 4, per_payer_parts: { hand: 1, horses: 3, flowers: 0, kongs: 0 } };
  assert.deepEqual(moneyLines(result), ["Per payer 4 = hand 1 + horses 3"]);
});
