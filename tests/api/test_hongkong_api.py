"""Rule set 5 `hongkong` 香港舊章 over HTTP (docs/RULES.md "Rule set 5"): listed, scored, analysed, and a game's sheet
across dealer rotation, a draw, a 包 hand and a 全銃 discard. The scoring itself is tested in
tests/scoring/test_hongkong.py."""

from __future__ import annotations

import pytest

from fanshot.scoring import score
from fanshot.scoring.analysis import analyse

PLAYERS = ["Ann", "Bo", "Cai", "Dee"]


def test_rulesets_lists_hongkong_last(client):
    listing = client.get("/v1/rulesets").json()
    # docs/RULES.md's numbering: the default stays first, and qianggang stays the first with flowers (the page
    # offers to switch a hand with flowers to it)
    assert [entry["name"] for entry in listing] == ["jipinghu", "tuidaohu", "xinzhang", "qianggang", "hongkong"]
    hongkong = next(entry for entry in listing if entry["name"] == "hongkong")
    assert (hongkong["zh"], hongkong["en"], hongkong["options"]["cap"]) == ("香港舊章", "Hong Kong old style", 10)
    details = client.get("/v1/rulesets/hongkong").json()
    assert details["fans"]["specials"]["thirteen_orphans"] == 13
    assert details["names"]["human"] == "地糊"


def test_score_answers_what_the_library_does(client):
    body = {"ruleset": "hongkong", "options": {"discard_payment": "half"},
            "hand": {"concealed": "123m456p789s234s11z", "flowers": "2f"},
            "context": {"win": "discard", "discarder": "3z", "seat_wind": "2z"}}
    response = client.post("/v1/score", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == score(body)
    # 平糊 1 + 門前清 1 + 正花 1 = 3 faan, 8 points; 半銃: the discarder 1 share, the others ½ each
    assert response.json()["payments"] == {"1z": -4, "2z": 16, "3z": -8, "4z": -4}


def test_below_the_minimum_is_refused_by_name(client):
    response = client.post("/v1/score", json={"ruleset": "hongkong", "hand": {
        "concealed": "123m456p789s11z", "melds": [{"kind": "pung", "tiles": "555s", "fed_by": "3z"}]},
        "context": {"win": "discard", "discarder": "3z", "seat_wind": "2z"}})
    assert response.status_code == 422
    assert [error["code"] for error in response.json()["errors"]] == ["below_minimum_fan"]


def test_analyse_values_waits_under_hongkong(client):
    body = {"ruleset": "hongkong", "hand": {"concealed": "123m456p789s555s1z"}, "context": {"seat_wind": "2z"}}
    response = client.post("/v1/analyse", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == analyse(body)
    # 三番起糊: self-drawn, 雞糊 + 門前清 + 無花 + 自摸 = 3; on a discard 2 faan do not win
    assert response.json()["waits"] == [{"tile": "1z", "remaining": 3, "self_draw": {"fan_total": 3, "points": 8},
                                         "discard": None}]


def win(discarder: int | None, winner: int, request: dict) -> dict:
    return {"kind": "win", "discarder": discarder, "wins": [{"winner": winner, "request": request}]}


CHICKEN = {"hand": {"concealed": "123m456p789s555s11z"}}  # self-drawn: 雞糊 + 門前清 + 無花 + 自摸 = 3 faan, 8
ALL_CHOWS = {"hand": {"concealed": "123m456p789s234s11z"}}  # on a discard: 平糊 + 門前清 + 無花 = 3 faan, 8


def dragons_fed_by(seat: str) -> dict:
    """大三元 self-drawn, the third dragon pung claimed from `seat`: 8 + 無花 + 自摸 = 10 faan, 128; 大三元包."""
    return {"hand": {"concealed": "123m11p", "melds": [
        {"kind": "pung", "tiles": "555z", "fed_by": "4z"}, {"kind": "pung", "tiles": "666z", "fed_by": "4z"},
        {"kind": "pung", "tiles": "777z", "fed_by": seat}]}}


@pytest.mark.storage  # it writes records
def test_a_game_keeps_its_sheet_across_rotation_a_draw_and_a_liable_hand(client):
    created = client.post("/v1/games", json={"players": PLAYERS, "ruleset": "hongkong"})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]
    hands = [
        win(None, 1, CHICKEN),  # Bo (South) self-draws: each pays 8; Ann's deal passes to Bo
        {"kind": "draw"},  # 流局: Bo deals again (L)
        # Cai (South under Bo) self-draws 大三元; Dee (West) fed the third: 大三元包, Dee pays 3 x 128
        win(None, 2, dragons_fed_by("3z")),
        win(2, 0, ALL_CHOWS),  # Ann (West under Cai) on the dealer Cai's discard: 全銃, Cai pays 2 x 8
    ]
    for hand in hands:
        response = client.post(f"/v1/games/{game_id}/hands", json=hand)
        assert response.status_code == 201, response.text
    game = client.get(f"/v1/games/{game_id}").json()
    assert [hand["dealer"] for hand in game["hands"]] == [0, 1, 1, 2]
    assert [hand["points"] for hand in game["hands"]] == [[-8, 24, -8, -8], [0, 0, 0, 0], [0, 0, 384, -384],
                                                          [16, 0, -16, 0]]
    assert game["hands"][2]["wins"][0]["fans"][0]["zh"] == "大三元"
    assert (game["dealer"], game["prevalent_wind"]) == (3, "1z")
    assert [player["total"] for player in game["players"]] == [8, 24, 360, -392]
    assert sum(player["total"] for player in game["players"]) == 0
