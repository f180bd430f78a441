"""Who pays whom (docs/RULES.md "Who pays", 包 liability, horses, kong payments, stake unit and fee, coin examples)."""

from __future__ import annotations

import pytest

from fanshot.scoring import score
from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.settle import horse_hits, horse_offset


def pung(tiles: str, by: str | None = None) -> dict:
    return {"kind": "pung", "tiles": tiles, **({"fed_by": by} if by else {})}


def chow(tiles: str, by: str | None = None) -> dict:
    return {"kind": "chow", "tiles": tiles, **({"fed_by": by} if by else {})}


def kong(tiles: str, by: str | None = None, *, added: bool = False, concealed: bool = False) -> dict:
    meld = {"kind": "kong", "tiles": tiles}
    if by:
        meld["fed_by"] = by
    if added:
        meld["added"] = True
    if concealed:
        meld["concealed"] = True
    return meld


def request(concealed: str, melds=(), *, ruleset: str = "jipinghu", options: dict | None = None,
            flowers: str | None = None, **context) -> dict:
    hand: dict = {"concealed": concealed, "melds": list(melds)}
    if flowers:
        hand["flowers"] = flowers
    body: dict = {"ruleset": ruleset, "hand": hand, "context": context}
    if options:
        body["options"] = options
    return body


def pay(**amounts) -> dict:
    """Payments of all four seats: pay(z1=-2, z2=6) -> {'1z': -2, '2z': 6, '3z': 0, '4z': 0}."""
    return {seat: amounts.get(f"z{seat[0]}", 0) for seat in t.SEATS}


CHICKEN = "123m456p789s555s11z"  # 鸡胡, no wind or dragon pung
ELEVEN = "123m456p789s11z"  # the same less its 555s, beside a kong
DISCARD = {"win": "discard", "discarder": "4z"}

# (id, request, points, payments, liable)
ROWS = [
    # self-draw: each of the three others pays the points (鸡胡 0 + 自摸 1 = 1 fan = 2)
    ("self_draw", request(CHICKEN, seat_wind="2z"), 2, pay(z1=-2, z2=6, z3=-2, z4=-2), None),
    ("self_draw_dealer", request(CHICKEN, seat_wind="1z"), 2, pay(z1=6, z2=-2, z3=-2, z4=-2), None),
    # discard: the discarder pays (default)
    ("discard", request(CHICKEN, seat_wind="2z", **DISCARD), 1, pay(z2=1, z4=-1), None),
    # option: the discarder pays for all three
    ("discard_pays_all", request(CHICKEN, seat_wind="2z", options={"discard_pays_all": True}, **DISCARD),
     1, pay(z2=3, z4=-3), None),
    # 抢杠: counts as self-draw (+1), floor 3 fan = 8; the robbed player pays for all three
    ("robbing_kong", request(CHICKEN, seat_wind="2z", win="discard", discarder="3z", special=["robbing_kong"]),
     8, pay(z2=24, z3=-24), "3z"),
    # 杠上开花包杠: a win on the replacement of a kong claimed from 3z's discard: 3z pays for all three
    ("kong_replacement_fed_kong", request(ELEVEN, [kong("2222s", "3z")], seat_wind="2z",
                                          special=["kong_replacement"], kong_fed_by="3z"),
     8, pay(z2=24, z3=-24), "3z"),
    # ... also without kong_fed_by: the last kong listed is the one just made; a 点杠 names its discarder
    ("kong_replacement_fed_kong_implied", request(ELEVEN, [kong("2222s", "3z")], seat_wind="2z",
                                                  special=["kong_replacement"]),
     8, pay(z2=24, z3=-24), "3z"),
    ("kong_replacement_last_of_two_kongs_fed", request("456p789s11z", [kong("7777m", concealed=True),
                                                                       kong("2222s", "4z")],
                                                       seat_wind="2z", special=["kong_replacement"]),
     8, pay(z2=24, z4=-24), "4z"),
    # ... not when the last kong listed is an added (补杠) or concealed kong, whatever came before it
    ("kong_replacement_last_kong_added", request("456p789s11z", [kong("2222s", "3z"), kong("7777m", added=True)],
                                                 seat_wind="2z", special=["kong_replacement"]),
     8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
    ("kong_replacement_last_kong_concealed", request("456p789s11z", [kong("2222s", "3z"),
                                                                     kong("7777m", concealed=True)],
                                                     seat_wind="2z", special=["kong_replacement"]),
     8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
    # 杠上开花 on one's own concealed kong: an ordinary self-draw, each pays
    ("kong_replacement_concealed_kong", request(ELEVEN, [kong("2222s", concealed=True)], seat_wind="2z",
                                                special=["kong_replacement"]),
     8, pay(z1=-8, z2=24, z3=-8, z4=-8), None),
    # 十二张落地: four exposed melds, the winner self-draws: the feeder of the 4th meld (4z) pays for all three
    ("twelve_tiles", request("99p", [pung("111m", "1z"), pung("222p", "3z"), chow("345s", "1z"),
                                     pung("777s", "4z")], seat_wind="2z"),
     2, pay(z2=6, z4=-6), "4z"),
    ("twelve_tiles_feeder_is_last_meld", request("99p", [pung("111m", "4z"), pung("222p", "3z"),
                                                         chow("345s", "1z"), pung("777s", "3z")], seat_wind="2z"),
     2, pay(z2=6, z3=-6), "3z"),
    # a chow is only ever claimed from the previous player, so a 4th meld that is a chow names its feeder
    ("twelve_tiles_last_meld_chow_feeder_implied",
     request("99p", [pung("111m", "4z"), pung("222p", "3z"), pung("777s", "4z"), chow("345s")], seat_wind="2z"),
     2, pay(z1=-6, z2=6), "1z"),
    ("twelve_tiles_last_meld_chow_feeder_implied_dealer_wins",
     request("99p", [pung("111m", "2z"), pung("222p", "3z"), pung("777s", "2z"), chow("345s")], seat_wind="1z"),
     2, pay(z1=6, z4=-6), "4z"),
    # ... only when the winner self-draws; on a discard the discarder pays as usual
    ("twelve_tiles_discard", request("99p", [pung("111m", "1z"), pung("222p", "3z"), chow("345s", "1z"),
                                             pung("777s", "4z")], seat_wind="2z", win="discard", discarder="3z"),
     1, pay(z2=1, z3=-1), None),
    # ... a concealed kong is not "down" (seed: 碰/吃/明杠 only)
    ("twelve_tiles_not_with_concealed_kong", request("99p", [pung("111m", "1z"), pung("222p", "3z"),
                                                             chow("345s", "1z"), kong("7777s", concealed=True)],
                                                     seat_wind="2z"),
     2, pay(z1=-2, z2=6, z3=-2, z4=-2), None),
    ("twelve_tiles_option_off", request("99p", [pung("111m", "1z"), pung("222p", "3z"), chow("345s", "1z"),
                                                pung("777s", "4z")], seat_wind="2z",
                                        options={"liability_twelve_tiles": False}),
     2, pay(z1=-2, z2=6, z3=-2, z4=-2), None),
    # 大四喜 after three exposed wind pungs: whoever discarded the last one (4z) pays for all three
    ("big_winds", request("55m", [pung("111z", "2z"), pung("222z", "3z"), pung("333z", "2z"),
                                  pung("444z", "4z")], seat_wind="1z",
                          options={"liability_twelve_tiles": False}),
     64, pay(z1=192, z4=-192), "4z"),
    ("big_winds_last_self_drawn", request("444z55m", [pung("111z", "2z"), pung("222z", "3z"),
                                                      pung("333z", "2z")], seat_wind="1z"),
     64, pay(z1=192, z2=-64, z3=-64, z4=-64), None),
    # 大三元 after two exposed dragon pungs: whoever discarded the last one (4z)
    ("big_dragons", request("123m11p", [pung("555z", "1z"), pung("666z", "3z"), pung("777z", "4z")],
                            seat_wind="2z"),
     64, pay(z2=192, z4=-192), "4z"),
    ("big_dragons_option_off", request("123m11p", [pung("555z", "1z"), pung("666z", "3z"), pung("777z", "4z")],
                                       seat_wind="2z", options={"liability_big_hands": False}),
     64, pay(z1=-64, z2=192, z3=-64, z4=-64), None),
    ("big_dragons_all_honours",
     request("111z33z", [pung("555z", "1z"), pung("666z", "3z"), pung("777z", "4z")], seat_wind="2z"),
     64, pay(z2=192, z4=-192), "4z"),  # regression: 包 was lost when 字一色 was the chosen special
    # 一炮三响: each winner scores at least 3 fan; the discarder pays each winner (documented default: the
    # discarder's ordinary share, also with discard_pays_all)
    ("multi_win", request(CHICKEN, seat_wind="2z", special=["multi_win"], **DISCARD),
     8, pay(z2=8, z4=-8), None),
    ("multi_win_discard_pays_all", request(CHICKEN, seat_wind="3z", special=["multi_win"],
                                           options={"discard_pays_all": True}, **DISCARD),
     8, pay(z3=8, z4=-8), None),
    # an explicit liable seat pays for all three
    ("explicit_liable", request(CHICKEN, seat_wind="2z", liable="1z"), 2, pay(z1=-6, z2=6), "1z"),
    # jipinghu has no kong payments: a concealed kong only changes the hand
    ("jipinghu_no_kong_payments", request(ELEVEN, [kong("2222s", concealed=True)], seat_wind="2z"),
     2, pay(z1=-2, z2=6, z3=-2, z4=-2), None),
]


@pytest.mark.parametrize(("request_", "points", "payments", "liable"), [pytest.param(*r[1:], id=r[0]) for r in ROWS])
def test_payments(request_, points, payments, liable) -> None:
    response = score(request_)
    assert response["points"] == points
    assert response["payments"] == payments
    assert response["liable"] == liable
    assert sum(response["payments"].values()) == 0


# ---- tuidaohu: kongs, horses, 抢杠, 杠上开花 on a 点杠 -------------------------------------------------------------

TD = "tuidaohu"
KONG_ROWS = [
    # (id, melds, winner, hand payments per payer, expected total payments)
    # 暗杠: each other player pays 2
    ("concealed", [kong("2222s", concealed=True)], "2z", pay(z1=-3, z2=9, z3=-3, z4=-3)),
    # 点杠: the discarder pays 3
    ("fed", [kong("2222s", "3z")], "2z", pay(z1=-1, z2=6, z3=-4, z4=-1)),
    # 补杠: each other player pays 1
    ("added", [kong("2222s", added=True)], "2z", pay(z1=-2, z2=6, z3=-2, z4=-2)),
]


@pytest.mark.parametrize(("melds", "winner", "payments"), [pytest.param(*r[1:], id=r[0]) for r in KONG_ROWS])
def test_tuidaohu_kong_payments(melds, winner, payments) -> None:
    response = score(request(ELEVEN, melds, ruleset=TD, seat_wind=winner))
    assert response["points"] == 1
    assert response["payments"] == payments


def test_tuidaohu_kongs_add_up() -> None:
    # 暗杠 (each 2) + 点杠 from 4z (3) + 补杠 (each 1); the hand itself 1 unit from each
    melds = [kong("2222s", concealed=True), kong("7777m", "4z"), kong("8888p", added=True)]
    response = score(request("456p11z", melds, ruleset=TD, seat_wind="1z"))
    assert response["points"] == 1
    assert response["kong_payments"] == {"2z": 3, "3z": 3, "4z": 6}
    assert response["payments"] == pay(z1=15, z2=-4, z3=-4, z4=-7)


def test_tuidaohu_robbing_kong_robbed_pays_all() -> None:
    response = score(request(CHICKEN, ruleset=TD, seat_wind="2z", win="discard", discarder="1z",
                             special=["robbing_kong"]))
    assert response["points"] == 1
    assert response["liable"] == "1z"
    assert response["payments"] == pay(z1=-3, z2=3)


@pytest.mark.parametrize("named", [{"kong_fed_by": "3z"}, {}], ids=["kong_fed_by", "implied_by_the_fed_kong"])
def test_tuidaohu_kong_replacement_on_fed_kong(named) -> None:
    # 杠开 x2 = 2 units; the kong's discarder pays for all three (6) and the 点杠 (3)
    response = score(request(ELEVEN, [kong("2222s", "3z")], ruleset=TD, seat_wind="2z",
                             special=["kong_replacement"], **named))
    assert response["points"] == 2
    assert response["liable"] == "3z"
    assert response["payments"] == pay(z2=9, z3=-9)


# ---- horses -------------------------------------------------------------------------------------------------------

# Seed 000 lines 187-190, verbatim: 「庄家：数字（任意筒索万）1、5、9和东风 / 下家：数字（任意筒索万）2、6、南风、红中 /
# 对家：数字（任意筒索万）3、7、西风、发财 / 上家：数字（任意筒索万）4、8、北风、白板」: the default in every rule set
# (option horse_dragons "seed"). Offsets from the dealer: 0 dealer 1z, 1 next 2z, 2 opposite 3z, 3 previous 4z.
HORSE_ROWS = [(f"{n}{s}", (n - 1) % 4) for s in "mps" for n in range(1, 10)] + [
    ("1z", 0), ("2z", 1), ("3z", 2), ("4z", 3), ("7z", 1), ("6z", 2), ("5z", 3)]


@pytest.mark.parametrize(("code", "offset"), HORSE_ROWS, ids=[r[0] for r in HORSE_ROWS])
def test_horse_seat(code, offset) -> None:
    assert horse_offset(code) == offset
    assert horse_offset(code, "seed") == offset


def test_horse_table_is_complete() -> None:
    assert {code for code, _ in HORSE_ROWS} == set(t.PLAYING_TILES)


# option horse_dragons = "red_dealer" (the house reading that counts 中 with 1 5 9): 中 -> dealer, 發 -> next,
# 白 -> opposite; every other tile as the seed
RED_DEALER_HORSE_ROWS = [(code, {"7z": 0, "6z": 1, "5z": 2}.get(code, offset)) for code, offset in HORSE_ROWS]


@pytest.mark.parametrize(("code", "offset"), RED_DEALER_HORSE_ROWS, ids=[r[0] for r in RED_DEALER_HORSE_ROWS])
def test_horse_seat_red_dealer(code, offset) -> None:
    assert horse_offset(code, "red_dealer") == offset


def test_red_dealer_horse_table_differs_only_in_dragons() -> None:
    assert {code for code, _ in RED_DEALER_HORSE_ROWS} == set(t.PLAYING_TILES)
    assert {c for c, o in RED_DEALER_HORSE_ROWS if o != dict(HORSE_ROWS)[c]} == {"5z", "6z", "7z"}


HORSE_HIT_ROWS = [
    # (dragons, horses, winner, hits): horse_dragons "seed" (seed 000, the default) or "red_dealer" (house)
    ("red_dealer", "159m1p1z7z", "1z", 6),
    ("red_dealer", "159m2p3s4z", "1z", 3),
    ("red_dealer", "26m2z6z3p4p", "2z", 4),
    ("red_dealer", "37s3z5z1m2m", "3z", 4),
    ("red_dealer", "48p4z1m1m", "4z", 3),
    ("red_dealer", "2222m", "1z", 0),
    ("seed", "159m1p1z7z", "1z", 5),
    ("seed", "26m2z7z3p4p", "2z", 4),
    ("seed", "37s3z6z1m2m", "3z", 4),
    ("seed", "48p4z5z1m1m", "4z", 4),
    ("seed", "5z6z7z", "1z", 0),
]


@pytest.mark.parametrize(("dragons", "horses", "winner", "hits"), HORSE_HIT_ROWS,
                         ids=[f"{r[0]}-{r[2]}-{r[1]}" for r in HORSE_HIT_ROWS])
def test_horse_hits(dragons, horses, winner, hits) -> None:
    assert horse_hits(tuple(t.parse(horses)), winner, dragons) == hits


HORSE_SCORE_ROWS = [
    # (id, ruleset, concealed, options, context, per-payer amount, payments) -- amount = units x (1 + hits)
    ("tuidaohu_dealer_3_hits", TD, CHICKEN, None, {"seat_wind": "1z", "horses": "159m2p3s4z"},
     4, pay(z1=12, z2=-4, z3=-4, z4=-4)),
    ("tuidaohu_no_hit", TD, CHICKEN, None, {"seat_wind": "1z", "horses": "2p3s4z2p3s4z"},
     1, pay(z1=3, z2=-1, z3=-1, z4=-1)),
    # 「下家：数字（任意筒索万）2、6、南风、红中」 (seed 000 line 188): 2m and 中 both name the South seat
    ("tuidaohu_south_2_hits_red_is_next", TD, CHICKEN, None, {"seat_wind": "2z", "horses": "2m7z1p3p4p9p"},
     3, pay(z1=-3, z2=9, z3=-3, z4=-3)),
    # 「对家：数字（任意筒索万）3、7、西风、发财」 (line 189): 發 names West, not South
    ("tuidaohu_green_is_opposite", TD, CHICKEN, None, {"seat_wind": "3z", "horses": "6z2m2p4p4s8s"},
     2, pay(z1=-2, z2=-2, z3=6, z4=-2)),
    # with a ghost in the hand only 4 horses are drawn
    ("tuidaohu_ghost_4_horses", TD, "123m456p789s555s1z5z", {"ghosts": "white"},
     {"seat_wind": "3z", "horses": "3m7p1s2s"}, 3, pay(z1=-3, z2=-3, z3=9, z4=-3)),
    # 「上家：数字（任意筒索万）4、8、北风、白板」 (line 190): 7z6z5z4p1m2m for the North seat hits 白 and 4p ...
    ("tuidaohu_white_is_previous", TD, CHICKEN, None, {"seat_wind": "4z", "horses": "7z6z5z4p1m2m"},
     3, pay(z1=-3, z2=-3, z3=-3, z4=9)),
    # ... and only 4p under the house option that counts 中 with 1 5 9 (發 next, 白 opposite)
    ("tuidaohu_red_dealer_option", TD, CHICKEN, {"horse_dragons": "red_dealer"},
     {"seat_wind": "4z", "horses": "7z6z5z4p1m2m"}, 2, pay(z1=-2, z2=-2, z3=-2, z4=6)),
    ("tuidaohu_red_dealer_option_dealer", TD, CHICKEN, {"horse_dragons": "red_dealer"},
     {"seat_wind": "1z", "horses": "7z6z5z1m5m9m"}, 5, pay(z1=15, z2=-5, z3=-5, z4=-5)),
    # 「庄家：数字（任意筒索万）1、5、9和东风」 (line 187): no dragon names the dealer
    ("tuidaohu_dealer_no_dragon", TD, CHICKEN, None, {"seat_wind": "1z", "horses": "7z6z5z1m5m9m"},
     4, pay(z1=12, z2=-4, z3=-4, z4=-4)),
    # qianggang 「买马」 (seed 003 line 3) counts from the dealer the same way: 中 and 2m hit South; stake 1 2 3 is
    # not given here, so the chicken stake is 1: 鸡胡 + 自摸 = 1 番 = 2, times (1 + 2 hits)
    ("qianggang_red_is_next", "qianggang", CHICKEN, None,
     {"seat_wind": "2z", "horses": "7z2m3m4m3p4p"}, 6, pay(z1=-6, z2=18, z3=-6, z4=-6)),
    # chicken stake 3: 3 x 2 for the hand, times (1 + 1 hit)
    ("qianggang_one_hit", "qianggang", CHICKEN, None,
     {"seat_wind": "1z", "horses": "1m2m3m4m2p3p", "stake": {"chicken": 3}}, 12, pay(z1=36, z2=-12, z3=-12, z4=-12)),
]


@pytest.mark.parametrize(("ruleset", "concealed", "options", "context", "per_payer", "payments"),
                         [pytest.param(*r[1:], id=r[0]) for r in HORSE_SCORE_ROWS])
def test_horses_multiply_the_hand(ruleset, concealed, options, context, per_payer, payments) -> None:
    response = score(request(concealed, ruleset=ruleset, options=options, **context))
    assert response["per_payer"] == per_payer
    assert response["payments"] == payments


# ---- stake unit, fee and the seed coin examples --------------------------------------------------------------------

def test_seed_coin_example_jipinghu() -> None:
    # seed 000: N=600, X=4, A=250, self-draw -> winner 600x4x3 - 250, each loser 600x4 + 250
    # 2 fan = 4 points: 鸡胡 0 + 自摸 1 + 门风 1 (a South pung for the South seat)
    response = score(request("123m456p789s222z11m", seat_wind="2z", stake={"unit": 600, "fee": 250}))
    assert response["points"] == 4
    assert response["payments"] == pay(z1=-2650, z2=7200 - 250, z3=-2650, z4=-2650)
    assert response["fees"] == {"1z": 250, "2z": 250, "3z": 250, "4z": 250}
    assert sum(response["payments"].values()) == -4 * 250  # zero apart from the fee


def test_seed_coin_example_tuidaohu() -> None:
    # seed 001: N=600, winner X=12 (three payers of 4), A=370 -> each loser 2400 (+370 fee)
    # 4 units = 碰碰胡 (big hand x2) and 无鬼 (x2: white-board ghosts in play, none held)
    response = score(request("111m222p333s444m66z", ruleset=TD, options={"ghosts": "white"}, seat_wind="1z",
                             stake={"unit": 600, "fee": 370}))
    assert response["points"] == 4
    assert response["payments"] == pay(z1=7200 - 370, z2=-2770, z3=-2770, z4=-2770)
    assert sum(response["payments"].values()) == -4 * 370


STAKE_ROWS = [
    # (id, request, payments)
    ("unit_discard", request(CHICKEN, seat_wind="2z", stake={"unit": 5}, **DISCARD), pay(z2=5, z4=-5)),
    ("fee_discard_every_seat", request(CHICKEN, seat_wind="2z", stake={"unit": 10, "fee": 1}, **DISCARD),
     pay(z1=-1, z2=9, z3=-1, z4=-11)),
    ("fractional_unit", request(CHICKEN, seat_wind="2z", stake={"unit": 0.5}), pay(z1=-1, z2=3, z3=-1, z4=-1)),
    ("quarter_unit", request(CHICKEN, seat_wind="2z", stake={"unit": 0.25}, **DISCARD), pay(z2=0.25, z4=-0.25)),
    ("tuidaohu_kong_times_unit", request(ELEVEN, [kong("2222s", concealed=True)], ruleset=TD, seat_wind="2z",
                                         stake={"unit": 10}), pay(z1=-30, z2=90, z3=-30, z4=-30)),
]


@pytest.mark.parametrize(("request_", "payments"), [pytest.param(*r[1:], id=r[0]) for r in STAKE_ROWS])
def test_stake(request_, payments) -> None:
    response = score(request_)
    assert response["payments"] == payments
    fee = request_["context"]["stake"].get("fee", 0)
    assert sum(response["payments"].values()) == pytest.approx(-4 * fee)


# Issue 35 (scorer item 4): amounts that would not stay exact (beyond 2^53 - 1) are refused with the fields to
# lower, not rounded nor a 500. A self-drawn all-pungs hand pays 3 x 2^fan: 50 + 1 fan is the largest that fits.
PUNGS_SELF_DRAW = {"hand": {"concealed": "111m222p333s444s99m"}, "options": {"cap": -1}}


@pytest.mark.parametrize(("value", "exact"), [(50, 3 * 2**51), (51, None), (63, None)])
def test_amounts_stay_exact_or_the_hand_is_refused(value: int, exact: int | None) -> None:
    request = {**PUNGS_SELF_DRAW, "options": {"cap": -1, "fans": {"all_pungs": value}}}
    if exact is not None:
        assert sum(v for v in score(request)["payments"].values() if v > 0) == exact
        return
    with pytest.raises(ScoringError, match=r"2\^53 - 1.*lower context\.stake.*options\.fans") as refused:
        score(request)
    assert refused.value.code == "bad_context"


def test_a_huge_stake_is_refused_not_rounded() -> None:
    request = {"ruleset": "qianggang", "hand": {"concealed": "123m456p789s555s11z"},
               "context": {"stake": {"unit": 10**12, "chicken": 10**7}}}  # the audit's example
    with pytest.raises(ScoringError, match="more than 9007199254740991"):
        score(request)
