"""`fanshot score` (JSON file, stdin, hand notation) and `fanshot rulesets`, through fanshot.cli.main."""

from __future__ import annotations

import io
import json

import pytest

from fanshot.cli import main
from fanshot.scoring import score
from fanshot.scoring.analysis import analyse
from fanshot.scoring.cli import hand_from_notation

CHICKEN = "123m456p789s555s11z"


def run_json(capsys, monkeypatch, tmp_path, request, *, via: str = "file") -> tuple[int, dict]:
    text = request if isinstance(request, str) else json.dumps(request, ensure_ascii=False)
    if via == "file":
        path = tmp_path / "request.json"
        path.write_text(text, encoding="utf-8")
        code = main(["score", "--json", str(path)])
    else:
        monkeypatch.setattr("sys.stdin", io.StringIO(text))
        code = main(["score", "--json"] + (["-"] if via == "dash" else []))
    out = capsys.readouterr().out
    return code, json.loads(out)


@pytest.mark.parametrize("via", ["file", "stdin", "dash"])
def test_json_request_scores(capsys, monkeypatch, tmp_path, via) -> None:
    request = {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "2z"}}
    code, response = run_json(capsys, monkeypatch, tmp_path, request, via=via)
    assert code == 0
    assert response == json.loads(json.dumps(score(request)))
    assert response["fans"] == [
        {"id": "chicken", "zh": "鸡胡", "en": "Chicken hand", "fan": 0, "kind": "hands"},
        {"id": "self_draw", "zh": "自摸", "en": "Self-draw", "fan": 1, "kind": "extras"}]
    assert response["payments"] == {"1z": -2, "2z": 6, "3z": -2, "4z": -2}


INVALID_ROWS = [
    # (id, request text or object, code)
    ("not_json", "{hand:", "bad_request"),
    ("not_an_object", [1, 2], "bad_request"),
    ("unknown_field", {"hand": {"concealed": CHICKEN}, "extra": 1}, "bad_request"),
    ("bad_tile", {"hand": {"concealed": "123x"}}, "bad_tile"),
    ("too_few_tiles", {"hand": {"concealed": "123m"}}, "too_few_tiles"),
    ("not_allowed", {"ruleset": "tuidaohu", "hand": {"concealed": CHICKEN},
                     "context": {"win": "discard", "discarder": "2z"}}, "not_allowed"),
]


@pytest.mark.parametrize("via", ["file", "stdin"])
@pytest.mark.parametrize(("request_", "code"), [pytest.param(*r[1:], id=r[0]) for r in INVALID_ROWS])
def test_json_invalid_request(capsys, monkeypatch, tmp_path, request_, code, via) -> None:
    exit_code, response = run_json(capsys, monkeypatch, tmp_path, request_, via=via)
    assert exit_code == 2
    assert list(response) == ["errors"]
    assert len(response["errors"]) == 1
    assert response["errors"][0]["code"] == code
    assert set(response["errors"][0]) <= {"code", "message", "detail"} and response["errors"][0]["message"]


def test_json_missing_file(capsys, tmp_path) -> None:
    assert main(["score", "--json", str(tmp_path / "absent.json")]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["code"] == "bad_request"


def test_json_directory_is_a_bad_request(capsys, tmp_path) -> None:
    assert main(["score", "--json", str(tmp_path)]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["code"] == "bad_request"


def test_json_file_not_utf8(capsys, tmp_path) -> None:
    path = tmp_path / "request.json"
    path.write_bytes(b'\xff\xfe{"hand": {}}')
    assert main(["score", "--json", str(path)]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["code"] == "bad_request"


def test_json_too_deep(capsys, monkeypatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("[" * 100_000 + "]" * 100_000))
    assert main(["score", "--json"]) == 2
    assert json.loads(capsys.readouterr().out)["errors"][0]["code"] == "bad_request"


# ---- every request shape of docs/API.md's example request ----------------------------------------------------

SHAPE_ROWS = [
    # (id, request, expected: fans {id: fan}, points, payments, extra checks on the response)
    ("melds_fed_added_concealed",
     {"ruleset": "jipinghu", "options": {"min_fan": 1},
      "hand": {"concealed": "123m11z", "winning_tile": "1z",
               "melds": [{"kind": "kong", "tiles": "7777z", "fed_by": "3z"},
                         {"kind": "kong", "tiles": "2222s", "added": True},
                         {"kind": "kong", "tiles": "1111p", "concealed": True}]},
      "context": {"win": "self_draw", "seat_wind": "2z", "prevalent_wind": "1z"}},
     {"chicken": 0, "self_draw": 1, "dragon_pung": 1}, 4, {"1z": -4, "2z": 12, "3z": -4, "4z": -4}, {}),
    ("chow_and_pung_melds_discard",
     {"hand": {"concealed": "456p11z", "melds": [{"kind": "chow", "tiles": "789m", "fed_by": "1z"},
                                                 {"kind": "pung", "tiles": "555s", "fed_by": "4z"},
                                                 {"kind": "pung", "tiles": "777z", "fed_by": "3z"}]},
      "context": {"win": "discard", "seat_wind": "2z", "discarder": "3z"}},
     {"chicken": 0, "dragon_pung": 1}, 2, {"1z": 0, "2z": 2, "3z": -2, "4z": 0}, {}),
    ("kong_replacement_kong_fed_by_liable",
     {"hand": {"concealed": "123m456p789s11z", "melds": [{"kind": "kong", "tiles": "2222s", "fed_by": "3z"}]},
      "context": {"seat_wind": "2z", "special": ["kong_replacement"], "kong_fed_by": "3z"}},
     {"chicken": 0, "self_draw": 1, "kong_replacement": 3}, 8, {"1z": 0, "2z": 24, "3z": -24, "4z": 0},
     {"liable": "3z"}),
    ("special_robbing_kong",
     {"hand": {"concealed": CHICKEN}, "context": {"win": "discard", "seat_wind": "2z", "discarder": "4z",
                                                  "special": ["robbing_kong"], "liable": "4z"}},
     {"chicken": 0, "self_draw": 1, "robbing_kong": 3}, 8, {"1z": 0, "2z": 24, "3z": 0, "4z": -24},
     {"liable": "4z"}),
    ("special_heavenly", {"hand": {"concealed": CHICKEN}, "context": {"special": ["heavenly"]}},
     {"heavenly": 6}, 64, {"1z": 192, "2z": -64, "3z": -64, "4z": -64}, {}),
    ("flowers_and_stakes_qianggang",
     {"ruleset": "qianggang", "hand": {"concealed": CHICKEN, "flowers": "15f"},
      "context": {"seat_wind": "1z", "stake": {"unit": 1, "fee": 0, "flower": 1, "kong": 2, "chicken": 3}}},
     {"chicken": 0, "self_draw": 1}, 2, {"1z": 24, "2z": -8, "3z": -8, "4z": -8},
     {"per_payer": 8, "per_payer_parts": {"hand": 6, "horses": 0, "flowers": 2, "kongs": 0},
      "stake": {"unit": 1, "fee": 0, "flower": 1, "kong": 2, "chicken": 3}}),
    ("ghosts_and_horses_tuidaohu",
     {"ruleset": "tuidaohu", "options": {"ghosts": "flip"},
      "hand": {"concealed": "123m456p789s555s1z5m"},
      "context": {"ghosts": "5m", "seat_wind": "1z", "horses": "15m2z6s"}},
     {"plain_win": 0}, 1, {"1z": 9, "2z": -3, "3z": -3, "4z": -3}, {"horses": {"tiles": "15m6s2z", "hits": 2}}),
    ("white_ghost_no_ghost_horses",
     {"ruleset": "tuidaohu", "options": {"ghosts": "white"}, "hand": {"concealed": "111m222p333s444m66z"},
      "context": {"seat_wind": "2z", "horses": "2m6p2z7z3m4m"}},
     {"all_pungs": 1, "no_ghost": 1}, 4, {"1z": -20, "2z": 60, "3z": -20, "4z": -20},
     {"horses": {"tiles": "234m6p27z", "hits": 4}, "ghosts": "5z"}),
    ("stake_unit_and_fee",
     {"hand": {"concealed": CHICKEN}, "context": {"seat_wind": "3z", "stake": {"unit": 10, "fee": 1}}},
     {"chicken": 0, "self_draw": 1}, 2, {"1z": -21, "2z": -21, "3z": 59, "4z": -21}, {}),
]


@pytest.mark.parametrize(("request_", "fans", "points", "payments", "extra"),
                         [pytest.param(*r[1:], id=r[0]) for r in SHAPE_ROWS])
def test_design_request_shapes(capsys, monkeypatch, tmp_path, request_, fans, points, payments, extra) -> None:
    code, response = run_json(capsys, monkeypatch, tmp_path, request_)
    assert code == 0, response
    assert {item["id"]: item["fan"] for item in response["fans"]} == fans
    assert response["points"] == points
    assert response["payments"] == payments
    for key, value in extra.items():
        assert response[key] == value
    for key in ("ruleset", "options", "fans", "fan_total", "capped", "limit", "points", "payments",
                "decomposition", "warnings"):
        assert key in response  # docs/API.md "Score response"


# ---- the human form ----------------------------------------------------------------------------------------------

def test_human_form_prints_chinese_and_english(capsys) -> None:
    assert main(["score", "123m456p789s11z [555s]", "--seat", "2z"]) == 0
    out = capsys.readouterr().out
    assert "jipinghu 鸡平胡 — Chicken and all-chows (Guangdong)" in out
    assert "鸡胡" in out and "Chicken hand" in out
    assert "自摸" in out and "Self-draw" in out
    assert "fan total 1" in out
    assert "points    2 per paying player" in out
    assert "1z -2  2z +6  3z -2  4z -2" in out


HUMAN_ROWS = [
    # (id, argv after "score", fragments that must be printed)
    ("capped", ["123m456m789m234m11z", "--seat", "2z"], ["混一色", "Half flush", "平胡", "All chows",
                                                           "fan total 3 (capped)"]),
    ("limit", ["123m456m789m234m11m", "--win", "discard", "--discarder", "3z", "--seat", "2z"],
     ["清一色", "Full flush", "fan total 4 (limit)", "2z +16  3z -16"]),
    ("kong_notation_and_liability", ["123m456p789s11z [2222s@3z]", "--seat", "2z", "--special", "kong_replacement",
                                     "--kong-fed-by", "3z"],
     ["杠上开花", "Win on a kong replacement", "liable    3z pays for all three (包)"]),
    ("added_and_concealed_kong", ["123m11z [7777z@3z] [2222s+] (1111p)", "--seat", "2z"],
     ["三元牌", "Dragon pung", "fan total 2"]),
    ("options_and_ruleset", ["123m456p789s234s11z", "--ruleset", "xinzhang", "--option", "min_fan=0",
                             "--option", "fans.all_chows=2", "--win", "discard", "--discarder", "3z",
                             "--seat", "2z"],
     ["xinzhang 广东新麻将", "平胡", "fan total 2", "2z +4  3z -4"]),
    ("unit_and_fee", [CHICKEN, "--seat", "2z", "--unit", "10", "--fee", "1"], ["1z -21  2z +59  3z -21  4z -21"]),
    ("qianggang_flowers", [CHICKEN, "--ruleset", "qianggang", "--flowers", "15f"], ["鸡胡", "Chicken hand"]),
    # docs/RULES.md rule set 4: stake 1 2 3, chicken self-draw with two flowers = 8 from each
    ("qianggang_stake", [CHICKEN, "--ruleset", "qianggang", "--flowers", "15f", "--stake", "1", "2", "3"],
     ["stake     flower 1 / kong 2 / chicken 3", "per payer 8 = hand 6 + flowers 2", "1z +24  2z -8"]),
    # 「抢杠者牌型不满3番牌型，按照3番满计算」: 3 番 = 8 points = 24 per payer at chicken stake 3, the robbed pays all
    ("qianggang_robbing_kong", [CHICKEN, "--ruleset", "qianggang", "--win", "discard", "--discarder", "3z", "--seat",
                                "2z", "--special", "robbing_kong", "--stake", "1", "2", "3"],
     ["抢杠", "fan total 3", "points    8", "per payer 24 = hand 24", "2z +72  3z -72", "liable    3z"]),
    ("tuidaohu_ghosts_horses", ["111m222p333s444m6z5z", "--ruleset", "tuidaohu", "--option", "ghosts=white",
                                "--horses", "159m4p"], ["碰碰胡", "All pungs", "1z +24"]),
    ("warning_for_unscored_special", ["111m222p333s444s99m", "--ruleset", "tuidaohu", "--seat", "2z",
                                      "--special", "last_tile"],
     ["warning", "last_tile"]),
]


@pytest.mark.parametrize(("argv", "fragments"), [pytest.param(*r[1:], id=r[0]) for r in HUMAN_ROWS])
def test_human_form(capsys, argv, fragments) -> None:
    assert main(["score", *argv]) == 0
    out = capsys.readouterr().out
    for fragment in fragments:
        assert fragment in out, fragment


def test_human_form_plain_tuidaohu_win(capsys) -> None:
    # regression: render_table crashed (max() of an empty sequence) on a hand with no fan items
    assert main(["score", "123m456p789s123m55z", "--ruleset", "tuidaohu"]) == 0
    out = capsys.readouterr().out
    assert "points    1 per paying player" in out


def test_human_form_prints_large_payments_in_full(capsys) -> None:
    assert main(["score", "555z666z777z123m11p", "--unit", "10000"]) == 0
    assert "1z +1,920,000  2z -640,000  3z -640,000  4z -640,000" in capsys.readouterr().out


HUMAN_ERROR_ROWS = [
    ("too_few_tiles", ["123m456p789s11z", "--seat", "2z"], "too_few_tiles"),
    ("unbalanced_brackets", ["123m456p789s11z [555s"], "bad_meld"),
    ("no_hand", [], "bad_request"),
    ("bad_option_syntax", [CHICKEN, "--option", "min_fan"], "bad_option"),
    ("unknown_ruleset", [CHICKEN, "--ruleset", "riichi"], "unknown_ruleset"),
    ("discard_without_discarder", [CHICKEN, "--win", "discard"], "bad_context"),
]


@pytest.mark.parametrize(("argv", "code"), [pytest.param(*r[1:], id=r[0]) for r in HUMAN_ERROR_ROWS])
def test_human_form_errors(capsys, argv, code) -> None:
    assert main(["score", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {code}: ")


NOTATION_ROWS = [
    ("plain", "123m456p789s555s11z", {"concealed": "123m456p789s555s11z", "melds": []}),
    ("exposed_pung", "123m456p789s11z [555s]",
     {"concealed": "123m456p789s11z", "melds": [{"kind": "pung", "tiles": "555s"}]}),
    ("exposed_chow", "[789m] 11z", {"concealed": "11z", "melds": [{"kind": "chow", "tiles": "789m"}]}),
    ("fed_kong", "11z [7777z@3z]", {"concealed": "11z", "melds": [{"kind": "kong", "tiles": "7777z",
                                                                   "fed_by": "3z"}]}),
    ("added_kong", "11z [2222s+]", {"concealed": "11z", "melds": [{"kind": "kong", "tiles": "2222s",
                                                                   "added": True}]}),
    ("concealed_kong", "11z (1111p)", {"concealed": "11z", "melds": [{"kind": "kong", "tiles": "1111p",
                                                                      "concealed": True}]}),
    ("letters", "EE [CCC@S]", {"concealed": "EE", "melds": [{"kind": "pung", "tiles": "CCC", "fed_by": "S"}]}),
]


@pytest.mark.parametrize(("text", "hand"), [pytest.param(*r[1:], id=r[0]) for r in NOTATION_ROWS])
def test_hand_notation(text, hand) -> None:
    assert hand_from_notation(text) == hand


# ---- fanshot rulesets --------------------------------------------------------------------------------------------

def test_rulesets_listing(capsys) -> None:
    assert main(["rulesets"]) == 0
    out = capsys.readouterr().out
    for name, zh in (("jipinghu", "鸡平胡"), ("tuidaohu", "推倒胡"), ("xinzhang", "广东新麻将"),
                     ("qianggang", "广东麻将抢杠")):
        assert name in out and zh in out
    assert "cap=3" in out and "min_fan=3" in out


def test_rulesets_json(capsys) -> None:
    assert main(["rulesets", "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    # docs/RULES.md's numbering: the default first (the page offers the first)
    assert [entry["name"] for entry in listing] == ["jipinghu", "tuidaohu", "xinzhang", "qianggang", "hongkong"]
    assert listing[0]["options"]["cap"] == 3


def test_ruleset_details(capsys) -> None:
    assert main(["rulesets", "tuidaohu"]) == 0
    details = json.loads(capsys.readouterr().out)
    assert details["name"] == "tuidaohu"
    assert details["fans"]["fixed_points"] == {"four_ghosts": 6}
    assert details["kongs"] == {"concealed": {"each": 2}, "fed": {"discarder": 3}, "added": {"each": 1}}


def test_ruleset_details_unknown(capsys) -> None:
    assert main(["rulesets", "riichi"]) == 2
    assert "unknown_ruleset" in capsys.readouterr().err


# ---- fanshot waits: the same flags as fanshot score, the analysis as text or JSON ---------------------------------

def test_waits_ready_hand_as_text(capsys) -> None:
    assert main(["waits", "123m456p789s555s1z", "--seat", "2z"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "jipinghu, 13 tiles: ready (shanten 0)"
    assert "1z       3  1 fan, 2 pts         0 fan, 1 pt" in out


def test_waits_not_ready_lists_useful_tiles(capsys) -> None:
    assert main(["waits", "123m456p789s55s1z2z"]) == 0
    out = capsys.readouterr().out
    assert "1 from ready (shanten 1)" in out and "useful (left)  5s×2  1z×3  2z×3" in out


def test_waits_fourteen_tiles_every_discard(capsys) -> None:
    assert main(["waits", "123m456p789s555s1z2z", "--ruleset", "tuidaohu"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "  discard 1z: ready, waits 2z×3" and lines[2] == "      2z: self-draw 0 fan, 1 pt; discard —"


def test_waits_json_is_the_analysis(capsys, tmp_path) -> None:
    request = {"hand": {"concealed": "123m456p789s555s1z", "melds": []}, "context": {"seat_wind": "2z"}}
    path = tmp_path / "request.json"
    path.write_text(json.dumps(request), encoding="utf-8")
    assert main(["waits", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == analyse(request)


@pytest.mark.parametrize(("args", "code"), [
    (["waits", "123m"], "too_few_tiles"),
    (["waits", "123m456p789s555s11z", "--winning-tile", "1z"], "bad_request"),
    (["waits", "123m456p789s555s1z", "--special", "last_tile"], "bad_context"),
])
def test_waits_refusals_exit_2(capsys, args, code) -> None:
    assert main(args) == 2
    assert capsys.readouterr().err.startswith(f"error: {code}: ")


def test_score_hongkong_in_notation(capsys) -> None:
    """`fanshot score --ruleset hongkong`: Traditional names, the half-spicy points, 全銃 (docs/RULES.md rule set 5)."""
    args = ["score", "--ruleset", "hongkong", "555z666z777z123m11p", "--win", "discard", "--discarder", "3z",
            "--seat", "2z", "--flowers", "2f"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "香港舊章" in out and "大三元" in out and "門前清" in out and "正花" in out
    assert "fan total 10" in out and "points    128" in out and "3z -256" in out
    assert main([*args, "--option", "spicy=full"]) == 0
    assert "points    1024" in capsys.readouterr().out
