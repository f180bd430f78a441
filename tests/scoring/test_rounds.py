import pytest

from scoring.errors import ScoringError
from scoring.rounds import Round, next_round


@pytest.mark.parametrize(("dealer", "winners", "drawn", "next_dealer"), [
    (0, [0], False, 0),        # the dealer wins: stays
    (0, [], True, 0),          # a draw 流局: the dealer stays
    (0, [2], False, 1),        # another player wins: the dealer's next player deals
    (3, [1], False, 0),        # the deal wraps round the table
    (1, [0, 1, 3], False, 1),  # a multi-win that includes the dealer keeps the dealer
    (1, [0, 3], False, 2),     # a multi-win without the dealer passes the deal
], ids=["dealer-wins", "draw", "other-wins", "wraps", "multi-win-with-dealer", "multi-win-without-dealer"])
def test_dealer_rotation(dealer, winners, drawn, next_dealer):
    assert next_round(Round(dealer=dealer), winners, drawn=drawn).dealer == next_dealer


def test_prevalent_wind_advances_after_every_player_dealt():
    state = Round()
    winds = [state.prevalent_wind]
    for _ in range(8):
        state = next_round(state, [(state.dealer + 1) % 4])  # a non-dealer wins every hand
        winds.append(state.prevalent_wind)
    assert winds == ["1z"] * 4 + ["2z"] * 4 + ["3z"]


def test_dealer_sits_east():
    state = Round(dealer=2)
    assert [state.seat_wind(p) for p in range(4)] == ["3z", "4z", "1z", "2z"]


@pytest.mark.parametrize(("winners", "drawn"), [([], False), ([1], True), ([4], False), ([1, 1], False)])
def test_impossible_outcomes_are_refused(winners, drawn):
    with pytest.raises(ScoringError) as raised:
        next_round(Round(), winners, drawn=drawn)
    assert raised.value.code == "bad_context"
