// Refusals name the field and the fix, in both languages, from the API error's code and detail (issue 35 item 4).
import assert from "node:assert/strict";
import { afterEach, test } from "node:test";

import { ApiError, call } from "../../api/static/api.js";
import { errorText, setLanguage } from "../../api/static/i18n.js";

const refusal = (code, detail, status = 422) => new ApiError(status, [{ code, message: "the scorer's words", detail }]);

// What the scorer answers (docs/API.md "Errors") for the examples; tests/api/test_refusal_detail.py checks
// that it does.
const HORSES = refusal("bad_context", { field: "context.horses", reason: "count", expected: 6, given: 4 });
const HEAVENLY = refusal("bad_context", { field: "context.special", reason: "heavenly", special: "heavenly" });
const STAKE = refusal("bad_context", { field: "context.stake.unit", reason: "range", most: 1e12, given: -1 });
const LETTERS = refusal("bad_tile", { field: "context.horses", reason: "not_a_tile", token: "x", position: 2 });

afterEach(() => setLanguage("en"));

test("each refusal names its field and its fix, and no two of the issue's examples read alike", () => {
  setLanguage("en");
  assert.equal(errorText(HORSES), "Horses: this hand draws 6 horses; you entered 4.");
  assert.match(errorText(HEAVENLY), /^Special wins: Heavenly is the dealer's self-draw .*choose Self-draw/);
  assert.match(errorText(STAKE), /^Stake per point: enter a number from 0 to 1,000,000,000,000; -1 is not one\.$/);
  assert.match(errorText(LETTERS), /^Horses: “x” \(character 3\) is not a tile: write digits, then a suit letter/);
  assert.equal(new Set([HORSES, HEAVENLY, STAKE, LETTERS].map((error) => errorText(error))).size, 4);
});

test("the same refusals in Chinese", () => {
  setLanguage("zh-Hans");
  assert.equal(errorText(HORSES), "马牌：这手牌要抽 6 匹马，你输入了 4 匹。");
  assert.match(errorText(HEAVENLY), /^特殊胡法：天和是庄家第一轮自摸：请选自摸/);
  assert.match(errorText(STAKE), /^每分金额：请输入 0 到 .* 之间的数，-1 不行。$/);
  assert.match(errorText(LETTERS), /^马牌：“x”（第 3 个字符）不是牌/);
});

test("a meld is named by its number, a special win and a win type by their words", () => {
  assert.equal(errorText(refusal("bad_meld", { field: "hand.melds[1]", reason: "size", kind: "pung", expected: 3, given: 2 })),
    "Meld 2: a Pung has 3 tiles; this one has 2.");
  assert.match(errorText(refusal("bad_context",
    { field: "context.special", reason: "needs_win", special: "robbing_kong", win: "discard" })),
  /^Special wins: Robbing a kong is won by Discard only/);
});

test("words that need a value the detail lacks give way to the code's own words", () => {
  assert.equal(errorText(refusal("too_many_tiles")), "The hand has too many tiles: a winning hand has 14 (a kong counts as 3).");
  assert.equal(errorText(refusal("too_many_tiles", { expected: 14, given: 15 })),
    "The hand has 15 tiles; a winning hand has 14 (a kong counts as 3). Take out the extra tiles, or put a kong's four in a meld.");
});

for (const [what, answer] of [
  ["a proxy's 502 page", () => new Response("<html><h1>502 Bad Gateway</h1></html>", { status: 502, headers: { "content-type": "text/html" } })],
  ["a gateway's empty 504", () => new Response("", { status: 504 })],
  ["JSON that is not the API's", () => Response.json({ message: "upstream timed out" }, { status: 504 })],
]) {
  test(`${what} says the server or a proxy answered with an error, not "no connection"`, async (t) => {
    t.mock.method(globalThis, "fetch", async () => answer());
    const error = await call("POST", "/v1/score", {}).catch((caught) => caught);
    assert.equal(error.errors[0].code, "not_json");
    assert.match(errorText(error), /^The server, or a proxy in front of it, answered with an error \(HTTP 50[24]\)/);
    assert.doesNotMatch(errorText(error), /connection/i);
    setLanguage("zh-Hans");
    assert.match(errorText(error), /代理/);
  });
}
