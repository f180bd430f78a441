// The result's headline: fixed points as points, the badge only where a cap or a limit applied.
import assert from "node:assert/strict";
import { test } from "node:test";

import { headline, kongTransfers } from "../../api/static/result.js";
import { setLanguage } from "../../api/static/i18n.js";

setLanguage("en");
const result = (extra) => ({ fans: [], fan_total: 3, points: 8, capped: false, limit: false, options: { cap: 3 }, ...extra });

const cases = [
  ["a plain hand: no badge", result({}), { fan: 3, points: 8, badge: "" }],
  ["a capped hand says its cap", result({ capped: true }), { fan: 3, points: 8, badge: "capped at 3 fan" }],
  ["满鬼: points, never '0 fan'", result({ fan_total: 0, points: 6, limit: true, fans: [{ kind: "fixed_points", fan: 6 }] }),
    { fan: null, points: 6, badge: "" }],
  ["a special hand in a rule set without a cap: no badge", result({ limit: true, fan_total: 1, options: { cap: -1 }, fans: [{ kind: "specials", fan: 1 }] }),
    { fan: 1, points: 8, badge: "" }],
  ["a special hand beyond the cap is a limit hand", result({ limit: true, fan_total: 13, fans: [{ kind: "specials", fan: 13 }] }),
    { fan: 13, points: 8, badge: "limit hand" }],
];
for (const [name, given, expected] of cases) test(name, () => assert.deepEqual(headline(given), expected));

test("kong payments show the payers paying and the winner gaining (issue 35: West +3 where West pays 3)", () => {
  assert.deepEqual(kongTransfers({ "3z": 3 }, "1z"), { "1z": 3, "3z": -3 });
  assert.deepEqual(kongTransfers({ "2z": 2, "3z": 2, "4z": 2 }, "1z"), { "1z": 6, "2z": -2, "3z": -2, "4z": -2 });
  assert.deepEqual(kongTransfers({}, "1z"), {});
});
