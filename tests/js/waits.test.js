// The analyse request the page sends and the words it shows, from score requests and analyses as the API gives them.
import assert from "node:assert/strict";
import { test } from "node:test";

import { setLanguage } from "../../api/static/i18n.js";
import { analyseRequest, distanceText, tileCount, unfinished, valueText } from "../../api/static/waits.js";

const context = { win: "discard", seat_wind: "2z", prevalent_wind: "1z", discarder: "1z", stake: { unit: 1 },
  special: ["last_tile"], horses: "15m", liable: "3z", kong_fed_by: "4z" };

test("tiles are counted with each kong as three", () => {
  assert.equal(tileCount({ concealed: "123m456p789s555s1z", melds: [] }), 13);
  assert.equal(tileCount({ concealed: "45m11z", melds: [{ kind: "kong", tiles: "9999m" }, { kind: "pung", tiles: "555s" },
    { kind: "chow", tiles: "123p" }] }), 13);
});

test("13 or 14 tiles are analysed, without the winning tile or what only a finished win has", () => {
  const request = { ruleset: "jipinghu", hand: { concealed: "123m456p789s555s1z", melds: [], flowers: "", winning_tile: "1z" },
    context };
  assert.deepEqual(analyseRequest(request), { ruleset: "jipinghu", hand: { concealed: "123m456p789s555s1z", melds: [], flowers: "" },
    context: { win: "discard", seat_wind: "2z", prevalent_wind: "1z", discarder: "1z", stake: { unit: 1 } } });
  assert.equal(analyseRequest({ ...request, hand: { ...request.hand, concealed: "123m456p789s555s11z" } }).hand.concealed,
    "123m456p789s555s11z");
  assert.equal(analyseRequest({ ...request, hand: { ...request.hand, concealed: "123m" } }), null);
  assert.equal(analyseRequest({ ...request, hand: { ...request.hand, concealed: "123m456p789s555s123z" } }), null);
});

const words = {
  en: [["1 fan · 2 pts", "0 fan · 1 pt", "—"], ["ready", "2 from ready", "complete"]],
  "zh-Hans": [["1 番 · 2 分", "0 番 · 1 分", "—"], ["听牌", "2 向听", "和了"]],
};
for (const [lang, [values, distances]] of Object.entries(words)) {
  test(`values and distances in words (${lang})`, () => {
    setLanguage(lang);
    assert.deepEqual([{ fan_total: 1, points: 2 }, { fan_total: 0, points: 1 }, null].map(valueText), values);
    assert.deepEqual([0, 2, -1].map(distanceText), distances);
    setLanguage("en");
  });
}

test("a meld still being built is not analysed (issue 35: the Waits panel showed an error while one was typed)", () => {
  const hand = { concealed: "123m456p789s1z", flowers: "" };
  const request = (melds) => ({ ruleset: "jipinghu", hand: { ...hand, melds } });
  assert.equal(analyseRequest(request([{ kind: "pung", tiles: "55s" }])), null);
  assert.equal(analyseRequest(request([{ kind: "kong", tiles: "", concealed: true }])), null);
  assert.notEqual(analyseRequest(request([{ kind: "pung", tiles: "555s" }])), null);
  assert.deepEqual([{ kind: "kong", tiles: "5555s" }, { kind: "chow", tiles: "123p" }, { kind: "kong", tiles: "555s" }]
    .map(unfinished), [false, false, true]);
});
