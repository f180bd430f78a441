// The money lines under the score: qianggang's three stake numbers and the parts of what each payer owes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { moneyLines } from "../../api/static/money.js";

test("qianggang: the stake numbers and each payer's parts (RULES.md rule set 4: two flowers at 1 2 3, 8 each)", () => {
  const result = { stake: { unit: 1, fee: 0, flower: 1, kong: 2, chicken: 3 }, per_payer: 8,
    per_payer_parts: { hand: 6, horses: 0, flowers: 2, kongs: 0 } };
  assert.deepEqual(moneyLines(result), ["Stake 花 flower 1 · 杠 kong 2 · 鸡胡 chicken 3",
    "Per payer 8 = hand 番 6 + flowers 花 2"]);
});

test("a points rule set: no stake numbers, the hand and horses", () => {
  const result = { stake: { unit: 1, fee: 0 }, per_payer: 4, per_payer_parts: { hand: 1, horses: 3, flowers: 0, kongs: 0 } };
  assert.deepEqual(moneyLines(result), ["Per payer 4 = hand 番 1 + horses 马 3"]);
});
