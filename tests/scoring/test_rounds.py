"""Dealer rotation per rule set (docs/RULES.md "Dealer and rounds"): each row quotes the seed line it follows."""

from pathlib import Path

import pytest

from fanshot.scoring import rules
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.rounds import Round, next_round

SEEDS = Path(__file__).resolve().parents[2] / "../shared/seeds"

STAYING = ("jipinghu", "xinzhang", "qianggang")
# seed 001 line 54 (and 000 lines 24-25, 003 lines 7-9)
DEALER_WINS_OR_DRAW = "1、如果庄家胡牌或和牌（流局）则下盘依然由该庄家做庄。"
OTHER_WINS = "2、如果非庄家胡牌则下一盘由庄家的下家玩家做庄。"
MULTI_WIN_WITH_DEALER = "如果一炮多响包括庄家在内胡牌，下一轮庄家继续当庄。"  # seed 000 line 10, 001 line 25
# seed 000 lines 203-204 (推倒胡)
WINNER_DEALS = "之后将由本局胡牌的玩家下局坐庄，如庄家胡牌，则继续连庄。"
DRAW_PASSES = "如出现和牌，则庄家的下家上庄。"

ROWS = [
    *[(name, seed, dealer, winners, drawn, next_dealer) for name in STAYING for seed, dealer, winners, drawn,
      next_dealer in [
          (DEALER_WINS_OR_DRAW, 0, [0], False, 0),
          (DEALER_WINS_OR_DRAW, 2, [], True, 2),
          (OTHER_WINS, 0, [2], False, 1),
          (OTHER_WINS, 3, [1], False, 0),
          (MULTI_WIN_WITH_DEALER, 1, [0, 1, 3], False, 1),
          (OTHER_WINS, 1, [0, 3], False, 2),
      ]],
    ("tuidaohu", WINNER_DEALS, 0, [2], False, 2),
    ("tuidaohu", WINNER_DEALS, 3, [1], False, 1),
    ("tuidaohu", WINNER_DEALS, 1, [1], False, 1),
    ("tuidaohu", DRAW_PASSES, 0, [], True, 1),
    ("tuidaohu", DRAW_PASSES, 3, [], True, 0),
]


@pytest.mark.parametrize(("ruleset", "seed", "dealer", "winners", "drawn", "next_dealer"), ROWS,
                         ids=[f"{r[0]}-{r[1][:6]}-{r[2]}-{r[3]}" for r in ROWS])
def test_dealer_rotation_follows_the_seed(ruleset, seed, dealer, winners, drawn, next_dealer):
    rotation = rules.load(ruleset).rotation
    assert next_round(Round(dealer=dealer), winners, drawn=drawn, rotation=rotation).dealer == next_dealer


def test_the_seed_lines_are_quoted_verbatim():
    seeds = "".join(path.read_text(encoding="utf-8") for path in sorted(SEEDS.glob("*.txt")))
    if not seeds:
        pytest.skip(f"no seeds at {SEEDS} (CI provides ../shared)")
    for line in (DEALER_WINS_OR_DRAW, OTHER_WINS, MULTI_WIN_WITH_DEALER, WINNER_DEALS, DRAW_PASSES):
        assert line in seeds


@pytest.mark.parametrize("ruleset", STAYING)
def test_prevalent_wind_advances_after_every_player_dealt(ruleset):
    """seed 000 line 32: 「当最后一位玩家做庄之牌局完结而没有连庄情况出现，则牌局的一个循环完结，称为"一圈"」"""
    state, rotation = Round(), rules.load(ruleset).rotation
    winds = [state.prevalent_wind]
    for _ in range(8):
        state = next_round(state, [(state.dealer + 1) % 4], rotation=rotation)  # a non-dealer wins every hand
        winds.append(state.prevalent_wind)
    assert winds == ["1z"] * 4 + ["2z"] * 4 + ["3z"]


def test_tuidaohu_prevalent_wind_advances_once_the_deal_is_back_at_the_first_dealer():
    """docs/RULES.md: the wind advances each time the deal has passed East → South → West → North and back."""
    rotation = rules.load("tuidaohu").rotation
    state = next_round(Round(), [2], rotation=rotation)  # player 2 wins: deals next, half way round
    assert (state.dealer, state.prevalent_wind) == (2, "1z")
    state = next_round(state, [3], rotation=rotation)
    assert (state.dealer, state.prevalent_wind) == (3, "1z")
    state = next_round(state, [1], rotation=rotation)  # past the first dealer's seat: the South round
    assert (state.dealer, state.prevalent_wind) == (1, "2z")
    state = next_round(state, [], drawn=True, rotation=rotation)
    assert (state.dealer, state.prevalent_wind) == (2, "2z")


def test_dealer_sits_east():
    state = Round(dealer=2)
    assert [state.seat_wind(p) for p in range(4)] == ["3z", "4z", "1z", "2z"]
    assert [state.player_at(seat) for seat in ("1z", "2z", "3z", "4z")] == [2, 3, 0, 1]


@pytest.mark.parametrize(("winners", "drawn"), [([], False), ([1], True), ([4], False), ([1, 1], False)])
def test_impossible_outcomes_are_refused(winners, drawn):
    with pytest.raises(ScoringError) as raised:
        next_round(Round(), winners, drawn=drawn)
    assert raised.value.code == "bad_context"


def test_a_rotation_the_rules_do_not_know_is_refused_on_load():
    raw = dict(rules._raw("jipinghu"), rotation={"win": "loser_deals"})
    with pytest.raises(ValueError, match="rotation.win"):
        rules._check_file("jipinghu", raw)
