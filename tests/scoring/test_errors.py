"""One test per error code in scoring.errors.ERROR_CODES: a minimal request that must be refused with it."""

from __future__ import annotations

import pytest

from fanshot.scoring import ScoringError, score
from fanshot.scoring.errors import ERROR_CODES

BASIC = "123m456p789s555s11z"  # a 14-tile chicken hand

ROWS = [
    # (code, request)
    ("bad_request", ["not", "an", "object"]),
    ("bad_tile", {"hand": {"concealed": "123m456p789s555s11x"}}),
    ("bad_meld", {"hand": {"concealed": "123m456p789s11z", "melds": [{"kind": "pung", "tiles": "556s"}]}}),
    ("too_many_copies", {"hand": {"concealed": "11111m234p567p999s"}}),
    ("too_many_tiles", {"hand": {"concealed": BASIC + "9m"}}),
    ("too_few_tiles", {"hand": {"concealed": BASIC[:-3] + "1z"}}),
    ("not_winning", {"hand": {"concealed": "123m456p789s555s12z"}}),
    ("below_minimum_fan", {"options": {"min_fan": 1}, "hand": {"concealed": BASIC},
                           "context": {"win": "discard", "discarder": "2z"}}),
    ("winning_tile_missing", {"hand": {"concealed": BASIC, "winning_tile": "9p"}}),
    ("unknown_ruleset", {"ruleset": "riichi", "hand": {"concealed": BASIC}}),
    ("unknown_option", {"options": {"dora": 1}, "hand": {"concealed": BASIC}}),
    ("bad_option", {"options": {"cap": "three"}, "hand": {"concealed": BASIC}}),
    ("bad_context", {"hand": {"concealed": BASIC}, "context": {"win": "tsumo"}}),
    ("not_allowed", {"ruleset": "tuidaohu", "hand": {"concealed": BASIC},
                     "context": {"win": "discard", "discarder": "2z"}}),
]


@pytest.mark.parametrize(("code", "request_"), ROWS, ids=[row[0] for row in ROWS])
def test_error_code(code: str, request_) -> None:
    with pytest.raises(ScoringError) as caught:
        score(request_)
    assert caught.value.code == code
    assert caught.value.message  # a precise message, never empty
    assert caught.value.as_dict() == {"code": code, "message": caught.value.message,
                                      **({"detail": caught.value.detail} if caught.value.detail else {})}


def test_every_error_code_has_a_test() -> None:
    codes = [row[0] for row in ROWS]
    assert len(codes) == len(set(codes)), "exactly one row per code"
    assert set(codes) == set(ERROR_CODES)
