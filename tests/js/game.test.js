// What the game module sends and shows, from a game as the API returns it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { describeHand, editedHand, handChange, playerAt, reconnectDelay, winRequest } from "../../api/static/game.js";
import { setLanguage } from "../../api/static/i18n.js";

const hand = { concealed: "123m456p789s555s11z", winning_tile: "1z" };
const game = {
  id: "g1",
  players: ["Ann", "Bo", "Cai", "Dee"].map((name, i) => ({ name, seat_wind: ["4z", "1z", "2z", "3z"][i] })),
  hands: [{ n: 1, kind: "win", discarder: 2, seat_winds: ["1z", "2z", "3z", "4z"], prevalent_wind: "1z",
    wins: [{ winner: 1, request: { hand }, kept: true, fan_total: 1, recognition_id: "r1" }] }],
};

test("a win drops what the game fills in, keeps the rest of the context", () => {
  const request = { ruleset: "jipinghu", options: { ghosts: "flip" }, hand,
    context: { win: "discard", seat_wind: "2z", prevalent_wind: "1z", discarder: "3z", stake: { unit: 1 },
      special: ["last_tile"], horses: "15m" } };
  assert.deepEqual(winRequest(request), { hand, context: { special: ["last_tile"], horses: "15m" } });
  assert.deepEqual(winRequest({ hand, context: { seat_wind: "1z" } }), { hand });
});

test("seats are read as the game's players for the next hand", () => {
  assert.equal(playerAt(game.players.map((p) => p.seat_wind), "1z"), 1);
  const change = handChange(game, { hand, context: { win: "discard", seat_wind: "3z", discarder: "1z" } },
    { recognitionId: "r2" });
  assert.deepEqual(change, { method: "POST", url: "/v1/games/g1/hands", body: { kind: "win", discarder: 1,
    wins: [{ winner: 3, request: { hand }, recognition_id: "r2" }] } });
  const selfDraw = handChange(game, { hand, context: { seat_wind: "4z" } });
  assert.deepEqual(selfDraw.body, { kind: "win", discarder: null, wins: [{ winner: 0, request: { hand } }] });
});

test("another winner on the same discard edits the last hand, read with that hand's seats", () => {
  const change = handChange(game, { hand, context: { win: "discard", seat_wind: "4z", discarder: "3z" } },
    { sameDiscard: true });
  assert.deepEqual(change, { method: "PUT", url: "/v1/games/g1/hands/1", body: { kind: "win", discarder: 2,
    wins: [{ winner: 1, request: { hand }, recognition_id: "r1" }, { winner: 3, request: { hand } }] } });
});

const twoWinners = { kind: "win", discarder: null,
  wins: [{ winner: 0, fan_total: 3, kept: true }, { winner: 2, fan_total: 1, kept: false }] };
const lines = {
  en: ["Bo 1 fan on Cai's discard", "Draw", "Ann 3 fan, Cai 1 fan (intercepted: not paid) self-draw"],
  "zh-Hans": ["Bo 1 番，Cai 放炮", "流局", "Ann 3 番、Cai 1 番（截胡：不付），自摸"],
};
for (const [lang, expected] of Object.entries(lines)) {
  test(`each hand in one line (${lang})`, () => {
    setLanguage(lang);
    assert.deepEqual([game.hands[0], { kind: "draw" }, twoWinners].map((hand) => describeHand(game, hand)), expected);
    setLanguage("en");
  });
}

test("a follower given up by EventSource tries again after 1 s, doubling, at most 30 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 10].map(reconnectDelay), [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
});

test("an edited hand keeps each win's recorded hand and photo, or takes the hand scored on the page", () => {
  const played = { ...game.hands[0], kongs: [{ player: 3, kind: "concealed" }] };
  // the winner and the discarder corrected: the recorded hand, its photo and the others' kongs stay
  assert.deepEqual(editedHand(played, { kind: "win", winners: [2], discarder: null }), {
    kind: "win", discarder: null, wins: [{ winner: 2, request: { hand }, recognition_id: "r1" }],
    kongs: [{ player: 3, kind: "concealed" }] });
  // the tiles corrected: the hand scored on the page, without what the game fills in
  const scored = { ruleset: "jipinghu", hand: { concealed: "11122z" }, context: { seat_wind: "3z", win: "discard", discarder: "1z" } };
  assert.deepEqual(editedHand(played, { kind: "win", winners: [2], discarder: 0, scored, recognitionId: "r2" }).wins,
    [{ winner: 2, request: { hand: { concealed: "11122z" } }, recognition_id: "r2" }]);
  assert.deepEqual(editedHand(played, { kind: "draw" }), { kind: "draw", kongs: [{ player: 3, kind: "concealed" }] });
});
