"""POST /v1/notation: a typed hand read by the scorer's parser (issue 35 item 14), a bad tile refused at its place."""

import pytest


def test_a_typed_hand_comes_back_as_tiles_and_melds(client):
    response = client.post("/v1/notation", json={"text": "123m 456p 789s 11z [555s] (1111p)"})
    assert response.status_code == 200, response.text
    assert response.json() == {
        "concealed": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z"],
        "melds": [{"kind": "pung", "tiles": ["5s"] * 3, "concealed": False, "added": False, "fed_by": None},
                  {"kind": "kong", "tiles": ["1p"] * 4, "concealed": True, "added": False, "fed_by": None}]}


@pytest.mark.parametrize(("text", "detail"), [
    ("123m 4x5p", {"reason": "not_a_tile", "token": "x", "position": 6}),
    ("123m [55q5s]", {"reason": "not_a_tile", "token": "q", "position": 8}),  # inside a meld: still its place
    ("123m 45", {"reason": "no_suit", "token": "45", "position": 5}),
    ("123m [555s", {"reason": "brackets", "token": "[", "position": 5}),
])
def test_a_bad_tile_is_refused_at_its_place_in_the_text(client, text, detail):
    response = client.post("/v1/notation", json={"text": text})
    assert response.status_code == 422
    [error] = response.json()["errors"]
    assert error["detail"] == {"field": "text", **detail}
    assert text[detail["position"]:].startswith(detail["token"])


def test_a_meld_that_is_no_meld_is_refused_as_a_score_request_would_be(client):
    [error] = client.post("/v1/notation", json={"text": "11z [55s]"}).json()["errors"]
    assert (error["code"], error["detail"]["field"]) == ("bad_meld", "hand.melds[0]")
