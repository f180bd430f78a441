"""POST /v1/analyse: the analysis library behind HTTP, refusals as the API answers them."""

import pytest

from fanshot.scoring.analysis import analyse

WAITING = {"hand": {"concealed": "123m456p789s555s1z"}, "context": {"seat_wind": "2z"}}


@pytest.mark.parametrize("request_", [
    WAITING,
    {"hand": {"concealed": "123m456p789s555s1z2z"}},
    {"hand": {"concealed": "123m456p789s55s1z2z"}, "context": {"win": "discard", "discarder": "3z"}},
    {"ruleset": "tuidaohu", "options": {"ghosts": "white"}, "hand": {"concealed": "123m456p789s234s5z"}},
], ids=["ready", "fourteen", "not_ready", "ghosts"])
def test_analyse_answers_what_the_library_does(client, request_):
    response = client.post("/v1/analyse", json=request_)
    assert response.status_code == 200, response.text
    assert response.json() == analyse(request_)


def test_ready_hand_waits(client):
    body = client.post("/v1/analyse", json=WAITING).json()
    assert body["shanten"] == 0
    assert body["waits"] == [{"tile": "1z", "remaining": 3, "self_draw": {"fan_total": 1, "points": 2},
                              "discard": {"fan_total": 0, "points": 1}}]


def test_nulls_mean_not_given(client):
    response = client.post("/v1/analyse", json={**WAITING, "options": None,
                                                "hand": {**WAITING["hand"], "winning_tile": None}})
    assert response.status_code == 200, response.text


@pytest.mark.parametrize(("body", "code"), [
    ({"hand": {"concealed": "123m"}}, "too_few_tiles"),
    ({"hand": {"concealed": "123m456p789s555s11z", "winning_tile": "1z"}}, "bad_request"),
    ({**WAITING, "context": {"special": ["last_tile"]}}, "bad_context"),
    ({"hand": {"concealed": "123q"}}, "bad_tile"),
    ({**WAITING, "ruleset": "nope"}, "unknown_ruleset"),
    ({"hand": {}}, "bad_request"),
    ([], "bad_request"),
])
def test_refusals(client, body, code):
    response = client.post("/v1/analyse", json=body)
    assert response.status_code == 422
    assert [error["code"] for error in response.json()["errors"]] == [code]


# Issue 35 (scorer item 5): the scorer is the one validator. The same bad members, sent to /v1/score and to
# /v1/analyse, get the same refusal from both (analyse used to coerce them through a second validator: a 200).
SCORED = {"hand": {"concealed": "123m456p789s555s1z", "winning_tile": "1z"}, "context": {"seat_wind": "2z"}}
BAD_MEMBERS = [
    ("options", {"cap": "3"}), ("options", {"cap": "true"}), ("options", {"fans": {"all_pungs": 2.0}}),
    ("options", {"min_fan": "1"}), ("context", {"seat_wind": "2z", "stake": {"unit": "2"}}), ("ruleset", 7),
    ("ruleset", None), ("hand", {"concealed": 13}), ("hands", {}),
]


@pytest.mark.parametrize(("member", "value"), BAD_MEMBERS, ids=[f"{m}={v}" for m, v in BAD_MEMBERS])
def test_score_and_analyse_refuse_the_same_bad_request_alike(client, member, value):
    codes = []
    for path, base in (("/v1/score", SCORED), ("/v1/analyse", WAITING)):
        response = client.post(path, json={**base, member: value})
        assert response.status_code == 422, (path, response.text)
        codes.append([error["code"] for error in response.json()["errors"]])
    assert codes[0] == codes[1]
