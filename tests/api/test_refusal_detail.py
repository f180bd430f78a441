"""Each refusal carries what a client needs to word it (issue 35 item 4): the field at fault, the reason where one
code and field have several fixes, and the values of the fix (docs/API.md "Errors"). tests/js/refusals.test.js
words these very details."""

import pytest

HAND = {"concealed": "123m456p789s11122z", "winning_tile": "2z"}
TUIDAOHU = {"ruleset": "tuidaohu", "hand": HAND, "context": {"win": "self_draw", "seat_wind": "1z"}}


def refusal(client, body):
    response = client.post("/v1/score", json=body)
    assert response.status_code == 422, response.text
    [error] = response.json()["errors"]
    return error["code"], error["detail"]


@pytest.mark.parametrize(("context", "code", "detail"), [
    ({"horses": "1m2m3m4m"}, "bad_context",
     {"field": "context.horses", "reason": "count", "expected": 6, "given": 4}),
    ({"stake": {"unit": -1}}, "bad_context",
     {"field": "context.stake.unit", "reason": "range", "most": 1e12, "given": -1}),
    ({"horses": "abc"}, "bad_tile",
     {"field": "context.horses", "reason": "not_a_tile", "token": "a", "position": 0}),
    ({"horses": "15m2"}, "bad_tile",
     {"field": "context.horses", "reason": "no_suit", "token": "2", "position": 3}),
    ({"special": ["robbing_kong"]}, "bad_context",
     {"field": "context.special", "reason": "needs_win", "special": "robbing_kong", "win": "discard"}),
])
def test_the_issues_examples_name_their_field_and_the_fix(client, context, code, detail):
    assert refusal(client, {**TUIDAOHU, "context": {**TUIDAOHU["context"], **context}}) == (code, detail)


def test_heavenly_on_a_discard_names_the_special_win(client):
    context = {"win": "discard", "discarder": "2z", "seat_wind": "1z", "special": ["heavenly"]}
    assert refusal(client, {"ruleset": "jipinghu", "hand": HAND, "context": context}) == (
        "bad_context", {"field": "context.special", "reason": "heavenly", "special": "heavenly"})


def test_a_meld_and_the_tile_count_carry_their_numbers(client):
    melds = [{"kind": "pung", "tiles": "55s"}]
    assert refusal(client, {"hand": {**HAND, "melds": melds}}) == (
        "bad_meld", {"field": "hand.melds[0]", "reason": "size", "kind": "pung", "expected": 3, "given": 2})
    assert refusal(client, {"hand": {"concealed": "123m456p789s1112z", "winning_tile": "2z"}}) == (
        "too_few_tiles", {"expected": 14, "given": 13})


def test_a_body_that_fails_its_schema_names_its_field(client):
    response = client.post("/v1/games", json={"ruleset": "jipinghu", "players": ["a", "b", "c", 4]})
    assert response.status_code == 422
    assert any(error.get("detail", {}).get("field", "").startswith("players") for error in response.json()["errors"])
