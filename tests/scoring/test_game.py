"""A game replayed from its hands (scoring.game): a full east round of every rule set with a multi-win (or 截胡
where several wins are not allowed), a draw, an edit and a delete; totals that square; the fewest transfers."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fanshot.scoring import ScoringError, score
from fanshot.scoring import tiles as t
from fanshot.scoring.game import check_setup, replay, scoresheet, several_winners_allowed, transfers
from fanshot.scoring.rules import load

CHICKEN = "123m456p789s555s11z"
EAST_PUNG = "123m456p789s111z22m"  # 东 pung: seat wind and prevalent wind extras for whoever sits East
SOUTH_PUNG = "123m456p789s222z11m"  # 南 pung: the prevalent wind extra once the south round begins
PUNGS = "111m222p333s444s99m"
HALF_FLUSH = "123m456m789m333z11z"
SEVEN_PAIRS = "1122m3344p5566s77z"
QIANGGANG_STAKE = {"flower": 1, "kong": 2, "chicken": 3}


def request(concealed: str, **context) -> dict:
    return {"hand": {"concealed": concealed}, **({"context": context} if context else {})}


def self_draw(winner: int, concealed: str = CHICKEN) -> dict:
    return {"kind": "win", "discarder": None, "wins": [{"winner": winner, "request": request(concealed)}]}


def discard(discarder: int, *wins: tuple[int, str], robbing: bool = False) -> dict:
    context = {"special": ["robbing_kong"]} if robbing else {}
    return {"kind": "win", "discarder": discarder,
            "wins": [{"winner": winner, "request": request(concealed, **context)} for winner, concealed in wins]}


DRAW = {"kind": "draw"}


@dataclass
class Scenario:
    ruleset: str
    stake: dict
    hands: list[dict]
    dealers: list[int]  # the dealer of each hand, then of the next one
    edit: tuple[int, dict]  # hand n (from 1) and what it becomes
    dealers_after_edit: list[int]
    delete: int  # hand n removed from the edited game
    dealers_after_delete: list[int]


SCENARIOS = [
    Scenario("jipinghu", {}, [self_draw(0, EAST_PUNG), DRAW, discard(1, (2, CHICKEN)),
                              discard(2, (0, CHICKEN), (3, PUNGS)), self_draw(2, EAST_PUNG),
                              discard(3, (0, SOUTH_PUNG)), self_draw(1)],
             [0, 0, 0, 1, 2, 2, 3, 0], (2, self_draw(1)), [0, 0, 1, 2, 3, 0, 0, 1], 1, [0, 1, 2, 3, 0, 0, 1]),
    Scenario("xinzhang", {}, [discard(0, (1, PUNGS)), DRAW, discard(2, (1, PUNGS), (3, HALF_FLUSH)),
                              self_draw(2, PUNGS), discard(2, (0, PUNGS)), self_draw(0, PUNGS)],
             [0, 1, 1, 1, 2, 3, 0], (1, self_draw(0, PUNGS)), [0, 0, 0, 1, 2, 3, 0], 2, [0, 0, 1, 2, 3, 0]),
    Scenario("qianggang", QIANGGANG_STAKE, [self_draw(0), discard(3, (0, CHICKEN), (2, PUNGS)), DRAW, self_draw(3),
                                            discard(2, (1, CHICKEN)), self_draw(2)],
             [0, 0, 1, 1, 2, 3, 0], (2, discard(3, (0, PUNGS), (2, CHICKEN))), [0, 0, 0, 0, 1, 1, 2],
             4, [0, 0, 0, 0, 1, 2]),
    Scenario("tuidaohu", {}, [self_draw(0), self_draw(2), DRAW,
                              discard(3, (1, SEVEN_PAIRS), (0, CHICKEN), robbing=True)],
             [0, 0, 2, 3, 1], (2, self_draw(3)), [0, 0, 3, 0, 1], 1, [0, 3, 0, 1]),
]
PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


def expected_points(ruleset: str, stake: dict, hand: dict, dealer: int, prevalent: str) -> list[float]:
    """A hand's points per player straight from the scorer, the winds written out from the expected dealer."""
    if hand["kind"] == "draw":
        return [0] * 4
    seat = {p: t.WINDS[(p - dealer) % 4] for p in range(4)}
    wins = hand["wins"]
    several = len(wins) > 1 and several_winners_allowed(load(ruleset))
    three = several and len(wins) == 3
    scored = []
    for win in wins:
        context = {**win["request"].get("context", {}), "seat_wind": seat[win["winner"]],
                   "prevalent_wind": prevalent, "stake": stake}
        if hand["discarder"] is not None:
            context.update(win="discard", discarder=seat[hand["discarder"]])
        if three:
            context["special"] = [*context.get("special", []), "multi_win"]
        scored.append(score({"ruleset": ruleset, "hand": win["request"]["hand"], "context": context}))
    if not several:
        scored = [max(scored, key=lambda s: (s["points"], s["fan_total"]))]
    return [sum(s["payments"][seat[p]] for s in scored) for p in range(4)]


def prevalent_winds(dealers: list[int]) -> list[str]:
    """The deal moves counter-clockwise; the wind advances each time it has gone once round the table."""
    passes, winds = 0, []
    for before, after in zip(dealers, dealers[1:], strict=False):
        winds.append(t.WINDS[passes // 4])
        passes += (after - before) % 4
    return [*winds, t.WINDS[passes // 4]]


def check_replay(scenario: Scenario, hands: list[dict], dealers: list[int]) -> dict:
    setup = check_setup(scenario.ruleset, {}, PLAYERS, scenario.stake)
    game = replay(setup, hands)
    winds = prevalent_winds(dealers)
    assert [h["dealer"] for h in game["hands"]] + [game["dealer"]] == dealers
    assert [h["prevalent_wind"] for h in game["hands"]] + [game["prevalent_wind"]] == winds
    for hand, played, dealer, wind in zip(hands, game["hands"], dealers, winds, strict=False):
        assert played["points"] == expected_points(scenario.ruleset, scenario.stake, hand, dealer, wind)
    totals = [sum(h["points"][p] for h in game["hands"]) for p in range(4)]
    assert [player["points"] for player in game["players"]] == totals
    assert sum(totals) == 0
    return game


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.ruleset for s in SCENARIOS])
def test_a_full_east_round_with_an_edit_and_a_delete(scenario):
    game = check_replay(scenario, scenario.hands, scenario.dealers)
    assert game["prevalent_wind"] == "2z"  # the east round is over
    n, changed = scenario.edit
    edited = [changed if i == n else hand for i, hand in enumerate(scenario.hands, start=1)]
    check_replay(scenario, edited, scenario.dealers_after_edit)
    deleted = [hand for i, hand in enumerate(edited, start=1) if i != scenario.delete]
    check_replay(scenario, deleted, scenario.dealers_after_delete)


def test_jipinghu_totals_worked_by_hand():
    """The jipinghu round with every payment worked out by hand (docs/RULES.md "Rule set 1"): the seat and prevalent
    wind extras of 东 pungs follow the dealer, so the edit changes a later hand's value."""
    scenario = SCENARIOS[0]
    setup = check_setup("jipinghu", {}, PLAYERS, {})
    assert [h["points"] for h in replay(setup, scenario.hands)["hands"]] == [
        [24, -8, -8, -8], [0, 0, 0, 0], [0, -1, 1, 0], [1, 0, -5, 4], [-8, -8, 24, -8], [1, 0, 0, -1],
        [-2, 6, -2, -2]]
    edited = list(scenario.hands)
    edited[1] = self_draw(1)
    game = replay(setup, edited)
    assert game["hands"][4]["points"] == [-4, -4, 12, -4]  # now North seat: only the prevalent wind extra
    assert game["hands"][5]["points"] == [2, 0, 0, -2]  # now in the south round: 南 is the prevalent wind
    assert [p["total"] for p in game["players"]] == [19, -1, -4, -14]  # hand 4: two winners, no 一炮三响 floor
    assert [p["seat_wind"] for p in game["players"]] == ["4z", "1z", "2z", "3z"]  # player 1 deals next


def test_two_wins_on_one_discard_both_count_without_the_一炮三响_floor():
    """docs/RULES.md: 一炮三响 is "one discard, three winners" (「同一张牌点三个炮」, seed 000 and 003): two 鸡胡
    winners are paid 1 each by the discarder, not lifted to 3 fan."""
    game = replay(check_setup("jipinghu", {}, PLAYERS, {}), [discard(1, (2, CHICKEN), (3, CHICKEN))])
    hand = game["hands"][0]
    assert [(w["winner"], w["kept"], w["fan_total"]) for w in hand["wins"]] == [(2, True, 0), (3, True, 0)]
    assert "multi_win" not in {fan["id"] for w in hand["wins"] for fan in w["fans"]}
    assert hand["points"] == [0, -2, 1, 1]


def test_three_wins_on_one_discard_all_count_and_pay_as_一炮三响():
    game = replay(check_setup("jipinghu", {}, PLAYERS, {}), [discard(2, (3, PUNGS), (0, CHICKEN), (1, CHICKEN))])
    wins = game["hands"][0]["wins"]
    assert [(w["winner"], w["kept"], w["fan_total"]) for w in wins] == [(3, True, 3), (0, True, 3), (1, True, 3)]
    assert "multi_win" in {fan["id"] for fan in wins[1]["fans"]}  # the 一炮三响 floor lifted the chicken hand
    assert game["hands"][0]["points"] == [8, 8, -24, 8]


@pytest.mark.parametrize(("wins", "kept"), [
    ([(0, CHICKEN), (2, PUNGS)], 2),  # the biggest hand wins (seed 003 line 3)
    ([(2, CHICKEN), (0, CHICKEN)], 0),  # equal hands: the first counter-clockwise from the discarder (3 -> 0)
])
def test_截胡_keeps_only_the_biggest_hand(wins, kept):
    game = replay(check_setup("qianggang", {}, PLAYERS, QIANGGANG_STAKE), [discard(3, *wins)])
    hand = game["hands"][0]
    assert [w["winner"] for w in hand["wins"] if w["kept"]] == [kept]
    assert [p for p in range(4) if hand["points"][p] > 0] == [kept]
    assert "intercepted" in scoresheet(check_setup("qianggang", {}, PLAYERS, QIANGGANG_STAKE), game)[1][3]


def test_qianggang_option_multi_win_lets_every_winner_on_one_discard_count():
    """docs/RULES.md: 「一炮多响：允许一炮多响」 (seed 003 line 31) is option `multi_win` (default false: 截胡)."""
    if "multi_win" not in load("qianggang").options:
        pytest.skip("qianggang has no option multi_win yet (issue 13 correction 3, helper scoring)")
    setup = check_setup("qianggang", {"multi_win": True}, PLAYERS, QIANGGANG_STAKE)
    hand = replay(setup, [discard(3, (0, CHICKEN), (2, PUNGS))])["hands"][0]
    assert [w["kept"] for w in hand["wins"]] == [True, True]
    assert hand["points"][0] > 0 and hand["points"][2] > 0 and hand["points"][3] < 0


def test_money_is_points_times_the_unit_less_the_fee_on_each_won_hand():
    setup = check_setup("jipinghu", {}, PLAYERS, {"unit": 0.5, "fee": 0.25})
    game = replay(setup, [self_draw(1), DRAW])
    assert game["hands"][0]["payments"] == [-1.25, 2.75, -1.25, -1.25]  # points [-2, 6, -2, -2]
    assert game["hands"][1]["payments"] == [0, 0, 0, 0]  # a draw settles nothing, fee included
    assert [p["fees"] for p in game["players"]] == [0.25] * 4
    assert game["settlement"] == [{"from": 0, "to": 1, "amount": 1}, {"from": 2, "to": 1, "amount": 1},
                                  {"from": 3, "to": 1, "amount": 1}]


def test_the_scoresheet_has_a_row_per_hand_and_the_totals():
    setup = check_setup("jipinghu", {}, PLAYERS, {})
    rows = scoresheet(setup, replay(setup, SCENARIOS[0].hands))
    assert rows[0] == ["hand", "prevalent wind", "dealer", "result", *PLAYERS]
    assert rows[1] == [1, "East", "Ann", "Ann 3 fan self-draw", 24, -8, -8, -8]
    assert rows[4][3] == "Ann 0 fan, Dee 2 fan on Cai's discard"
    assert rows[-1] == ["total", "", "", "", 16, -11, 10, -15]  # hand 4 [8, 0, -16, 8] → [1, 0, -5, 4]


# 推倒胡 kongs (docs/RULES.md, seed 000): 暗杠 2 from each other player, 点杠 3 from its discarder, 补杠 1 from each
KONG_CASES = [
    ("tuidaohu", {}, {}, {"kind": "draw", "kongs": [{"player": 1, "kind": "concealed"}]}, [-2, 6, -2, -2]),
    ("tuidaohu", {}, {}, {"kind": "draw", "kongs": [{"player": 2, "kind": "exposed", "from": 0}]}, [-3, 0, 3, 0]),
    ("tuidaohu", {}, {}, {"kind": "draw", "kongs": [{"player": 3, "kind": "added"}]}, [-1, -1, -1, 3]),
    ("tuidaohu", {}, {"unit": 10, "fee": 1}, {"kind": "draw", "kongs": [  # they add up; a draw charges no fee
        {"player": 1, "kind": "concealed"}, {"player": 1, "kind": "added"}, {"player": 2, "kind": "exposed",
                                                                             "from": 1}]}, [-30, 60, 0, -30]),
    ("tuidaohu", {"kongs_void_on_draw": True}, {}, {"kind": "draw", "kongs": [{"player": 1, "kind": "concealed"}]},
     [0, 0, 0, 0]),
    # a loser's kong on a win: the winner (0, self-drawn 清一色: 2 from each) pays it as the others do
    ("tuidaohu", {}, {}, {**self_draw(0, "111m222m333m444m55m"), "kongs": [{"player": 1, "kind": "concealed"}]},
     [4, 4, -4, -4]),
    ("tuidaohu", {"kongs_void_on_draw": True}, {},  # the option voids kongs on a draw only
     {**self_draw(0, "111m222m333m444m55m"), "kongs": [{"player": 1, "kind": "concealed"}]}, [4, 4, -4, -4]),
    # qianggang: each other player pays the kong stake for a loser's kong, on a draw too
    ("qianggang", {}, QIANGGANG_STAKE, {"kind": "draw", "kongs": [{"player": 3, "kind": "exposed", "from": 1}]},
     [-2, -2, -2, 6]),
]


@pytest.mark.parametrize(("ruleset", "options", "stake", "hand", "payments"), KONG_CASES)
def test_every_players_kongs_are_paid_where_the_rule_set_pays_kongs(ruleset, options, stake, hand, payments):
    setup = check_setup(ruleset, options, PLAYERS, stake)
    played = replay(setup, [hand])
    assert played["hands"][0]["payments"] == payments
    assert sum(played["hands"][0]["points"]) == 0 and played["hands"][0]["kongs"] == hand["kongs"]


def test_a_hand_s_kong_money_is_shown_apart_from_its_win_money():
    # issue 50: the sheet showed one sum per player, the kongs run into the win
    setup = check_setup("tuidaohu", {}, PLAYERS, {"unit": 10, "fee": 1})
    hand = {**self_draw(0, "111m222m333m444m55m"), "kongs": [{"player": 1, "kind": "concealed"}]}
    played = replay(setup, [hand, {"kind": "draw"}])["hands"]
    assert played[0]["kong_payments"] == [-20, 60, -20, -20]  # 2 points from each other player, 10 a point
    assert played[0]["payments"] == [39, 39, -41, -41]  # with the win: 6 points from each, less the fee of 1
    assert "kong_payments" not in played[1]


@pytest.mark.parametrize(("ruleset", "hand", "message"), [
    ("jipinghu", {"kind": "draw", "kongs": [{"player": 1, "kind": "concealed"}]}, "pays no kong apart"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "exposed"}]}, "kongs[0].from"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "exposed", "from": 1}]}, "kongs[0].from"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "added", "from": 2}]}, "only an exposed kong"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 4, "kind": "added"}]}, "kongs[0].player"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "hidden"}]}, "kongs[0].kind"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "added", "tile": "5m"}]}, "unknown field"),
    ("tuidaohu", {"kind": "draw", "kongs": {"player": 1}}, "kongs: a list"),
    ("tuidaohu", {"kind": "draw", "kongs": [{"player": 1, "kind": "added"}] * 5}, "at most 4"),
    ("tuidaohu", {**self_draw(0, "111m222m333m444m55m"), "kongs": [{"player": 0, "kind": "added"}]},
     "melds of its score request"),
])
def test_a_bad_kong_is_refused_naming_it(ruleset, hand, message):
    with pytest.raises(ScoringError, match="hand 1: ") as refused:
        replay(check_setup(ruleset, {}, PLAYERS, {}), [hand])
    assert message in refused.value.message


@pytest.mark.parametrize(("hand", "message"), [
    ({"kind": "win", "discarder": 1, "wins": [{"winner": 1, "request": request(CHICKEN)}]}, "own discard"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": 0, "request": request(CHICKEN)},
                                                 {"winner": 1, "request": request(CHICKEN)}]}, "one discard"),
    ({"kind": "win", "discarder": 2, "wins": [{"winner": 0, "request": request(CHICKEN)},
                                              {"winner": 0, "request": request(PUNGS)}]}, "at most once"),
    ({"kind": "win", "discarder": 4, "wins": [{"winner": 0, "request": request(CHICKEN)}]}, "discarder"),
    ({"kind": "win", "discarder": True, "wins": [{"winner": 0, "request": request(CHICKEN)}]}, "discarder"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": "0", "request": request(CHICKEN)}]}, "winner"),
    ({"kind": "win", "discarder": None, "wins": []}, "one to three"),
    ({"kind": "lost"}, "kind"),
    ({"kind": "draw", "wins": []}, "unknown field"),
    (self_draw(0, "123m456p789s555s12z"), "no winning shape"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": 0, "request": request(CHICKEN, seat_wind="3z")}]},
     "the game fills it in"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": 0, "request": {**request(CHICKEN),
                                                                            "ruleset": "tuidaohu"}}]}, "plays"),
    ({"kind": "win", "discarder": None, "wins": [{"winner": 0, "request": request(CHICKEN, stake={"unit": 9})}]},
     "stake"),
])
def test_a_bad_hand_is_refused_naming_the_hand(hand, message):
    setup = check_setup("jipinghu", {}, PLAYERS, {})
    with pytest.raises(ScoringError) as refused:
        replay(setup, [DRAW, hand])
    assert refused.value.message.startswith("hand 2: ")
    assert message in refused.value.message


def test_a_delete_that_leaves_a_later_hand_impossible_is_refused():
    """天和 needs the dealer: once the hand before it is gone, player 1 no longer deals."""
    setup = check_setup("jipinghu", {}, PLAYERS, {})
    heavenly = {"kind": "win", "discarder": None,
                "wins": [{"winner": 1, "request": request(CHICKEN, special=["heavenly"])}]}
    assert replay(setup, [self_draw(2), heavenly])["hands"][1]["wins"][0]["fan_total"] == 6
    with pytest.raises(ScoringError, match="hand 1: .*天和"):
        replay(setup, [heavenly])


@pytest.mark.parametrize(("ruleset", "options", "players", "stake"), [
    ("riichi", {}, PLAYERS, {}),
    ("jipinghu", {"cap": "x"}, PLAYERS, {}),
    ("jipinghu", {}, PLAYERS[:3], {}),
    ("jipinghu", {}, ["Ann", "Ann", "Bo", "Cai"], {}),
    ("jipinghu", {}, ["Ann", " ", "Bo", "Cai"], {}),
    ("jipinghu", {}, PLAYERS, {"unit": -1}),
])
def test_a_bad_setup_is_refused(ruleset, options, players, stake):
    with pytest.raises(ScoringError):
        check_setup(ruleset, options, players, stake)


# ---- properties -------------------------------------------------------------------------------------------

WINNING = {"jipinghu": [CHICKEN, PUNGS, EAST_PUNG, HALF_FLUSH], "xinzhang": [PUNGS, HALF_FLUSH],
           "qianggang": [CHICKEN, PUNGS, HALF_FLUSH], "tuidaohu": [CHICKEN, SEVEN_PAIRS, PUNGS]}
STAKES = st.fixed_dictionaries({"unit": st.sampled_from([1, 0.5, 2, 10, 0.1]),
                                "fee": st.sampled_from([0, 0.25, 3, 0.1])})


@st.composite
def games(draw):
    ruleset = draw(st.sampled_from(sorted(WINNING)))
    hands = []
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(["draw", "self_draw", "discard"]))
        tiles = st.sampled_from(WINNING[ruleset])
        if kind == "draw":
            hands.append(DRAW)
        elif kind == "self_draw":
            hands.append(self_draw(draw(st.integers(0, 3)), draw(tiles)))
        else:
            discarder = draw(st.integers(0, 3))
            winners = draw(st.lists(st.integers(0, 3).filter(lambda p, d=discarder: p != d), min_size=1,
                                    max_size=3, unique=True))
            hands.append(discard(discarder, *((w, draw(tiles)) for w in winners),
                                 robbing=ruleset == "tuidaohu"))
    stake = {**draw(STAKES), **(QIANGGANG_STAKE if ruleset == "qianggang" else {})}
    return check_setup(ruleset, {}, PLAYERS, stake), hands


@settings(max_examples=150, deadline=None)
@given(games())
def test_totals_always_sum_to_zero_apart_from_fees_and_the_settlement_squares_everyone(game):
    setup, hands = game
    played = replay(setup, hands)
    fee = Decimal(str(setup.stake["fee"]))
    for hand in played["hands"]:
        assert sum(Decimal(str(p)) for p in hand["points"]) == 0
        won = hand["kind"] == "win"
        assert sum(Decimal(str(p)) for p in hand["payments"]) == (-4 * fee if won else 0)
    players = played["players"]
    assert sum(Decimal(str(p["total"])) + Decimal(str(p["fees"])) for p in players) == 0
    left = [Decimal(str(p["total"])) + Decimal(str(p["fees"])) for p in players]
    for payment in played["settlement"]:
        assert payment["amount"] > 0
        left[payment["from"]] += Decimal(str(payment["amount"]))
        left[payment["to"]] -= Decimal(str(payment["amount"]))
    assert left == [0] * 4
    assert len(played["settlement"]) <= max(0, sum(1 for p in players if p["total"] + p["fees"]) - 1)


@given(st.lists(st.integers(-50, 50), min_size=3, max_size=3))
def test_transfers_are_the_fewest(three):
    balances = [*three, -sum(three)]
    paid = transfers([Decimal(b) for b in balances])
    owing = [b for b in balances if b]
    cancelling_pairs = any(balances[i] == -balances[j] != 0 for i in range(4) for j in range(i + 1, 4))
    # four people with nonzero balances need three payments unless two of them cancel out
    fewest = max(0, len(owing) - 1) - (1 if len(owing) == 4 and cancelling_pairs else 0)
    assert len(paid) == fewest
