"""Rule sets as validated data (docs/RULES.md "What every rule set shares"): loading, options, overrides, file
checks."""

from __future__ import annotations

import math
import tomllib
from importlib import resources

import pytest

from fanshot.scoring import ScoringError, rules, ruleset_details, ruleset_summaries, score
from fanshot.scoring.patterns import PATTERNS

NAMES = ["jipinghu", "tuidaohu", "xinzhang", "qianggang", "hongkong"]  # docs/RULES.md's numbering, the default first
CHICKEN = "123m456p789s555s11z"


def test_ruleset_names() -> None:
    assert rules.ruleset_names() == NAMES


DEFAULT_ROWS = [
    # (rule set, option, docs/RULES.md value)
    ("jipinghu", "cap", 3), ("jipinghu", "min_fan", 0), ("jipinghu", "chow", True),
    ("jipinghu", "discard_win", True), ("jipinghu", "flowers", False), ("jipinghu", "seven_pairs", False),
    ("jipinghu", "all_chows_suited_pair", False), ("jipinghu", "discard_pays_all", False),
    ("jipinghu", "liability_twelve_tiles", True), ("jipinghu", "liability_big_hands", True),
    ("jipinghu", "horses", False), ("jipinghu", "ghosts", "none"),
    ("xinzhang", "cap", 5), ("xinzhang", "min_fan", 3), ("xinzhang", "chow", True), ("xinzhang", "flowers", False),
    ("xinzhang", "liability_twelve_tiles", True), ("xinzhang", "liability_big_hands", True),
    ("tuidaohu", "cap", -1), ("tuidaohu", "chow", False), ("tuidaohu", "discard_win", False),
    ("tuidaohu", "seven_pairs", True), ("tuidaohu", "ghosts", "none"), ("tuidaohu", "horses", True),
    ("tuidaohu", "horses_with_ghost", 4), ("tuidaohu", "horses_without_ghost", 6), ("tuidaohu", "flowers", False),
    ("qianggang", "flowers", True), ("qianggang", "chow", False), ("qianggang", "discard_win", True),
    ("qianggang", "horses", True), ("qianggang", "horses_with_ghost", 4), ("qianggang", "horses_without_ghost", 6),
    ("qianggang", "cap", 3), ("qianggang", "min_fan", 0),  # 爆胡 3 番: 「不满3番牌型，按照3番满计算」 (seed 003)
    ("jipinghu", "horses_with_ghost", 4), ("jipinghu", "horses_without_ghost", 6),
    ("xinzhang", "horses_with_ghost", 4), ("xinzhang", "horses_without_ghost", 6),
    # seed 000 verbatim: 「下家：…红中」「对家：…发财」「上家：…白板」: 中 next, 發 opposite, 白 previous
    *[(name, "horse_dragons", "seed") for name in NAMES],
    # 一炮多响: 「一炮多响允许一炮多响」 (seed 000 line 10) in jipinghu and xinzhang; qianggang plays 截胡 (seed 003
    # line 3: 「只有胡大牌的一家才算胡」); tuidaohu 「不存在一炮多响」 (seed 000 line 206)
    ("jipinghu", "multi_win", True), ("xinzhang", "multi_win", True), ("qianggang", "multi_win", False),
    ("tuidaohu", "multi_win", False),
]


@pytest.mark.parametrize(("name", "option", "value"), DEFAULT_ROWS, ids=[f"{r[0]}-{r[1]}" for r in DEFAULT_ROWS])
def test_documented_defaults(name, option, value) -> None:
    assert rules.load(name).options[option] == value


@pytest.mark.parametrize("name", NAMES)
def test_load_and_describe(name) -> None:
    ruleset = rules.load(name)
    assert ruleset.name == name and ruleset.zh and ruleset.en
    assert ruleset.points in rules.POINTS_MODELS
    described = ruleset.describe()
    assert described["name"] == name
    assert described["options"] == dict(ruleset.options)
    for table, values in described["fans"].items():
        assert table in rules.VALUE_TABLES
        assert all(pid in PATTERNS and type(v) is int for pid, v in values.items())
    assert ruleset_details(name) == described


def test_a_rule_set_plays_ghosts_by_its_option_or_by_scoring_them() -> None:
    assert {s["name"]: s["ghosts_in_play"] for s in ruleset_summaries()} == {  # 推倒胡 scores 无鬼 and 满鬼
        "jipinghu": False, "qianggang": False, "tuidaohu": True, "xinzhang": False, "hongkong": False}
    assert rules.load("jipinghu", {"ghosts": "flip"}).ghosts_in_play


def test_summaries() -> None:
    summaries = ruleset_summaries()
    assert [s["name"] for s in summaries] == NAMES
    assert all(set(s) == {"name", "zh", "en", "options", "ghosts_in_play"} for s in summaries)
    assert {s["name"]: s["zh"] for s in summaries} == {"jipinghu": "鸡平胡", "qianggang": "广东麻将抢杠",
                                                       "tuidaohu": "推倒胡", "xinzhang": "广东新麻将",
                                                       "hongkong": "香港舊章"}


@pytest.mark.parametrize("name", NAMES)
def test_files_hold_only_known_keys_and_patterns(name) -> None:
    raw = tomllib.loads((resources.files("fanshot.scoring") / "rulesets" / f"{name}.toml").read_text(encoding="utf-8"))
    rules._check_file(name, raw)  # does not raise
    for table in rules.VALUE_TABLES:
        assert set(raw.get(table, {})) <= set(PATTERNS)


def test_cap_property() -> None:
    assert rules.load("jipinghu").cap == 3
    assert rules.load("tuidaohu").cap is None
    assert rules.load("jipinghu", {"cap": -1}).cap is None


CAP_RELATIVE_ROWS = [
    # (cap option, pattern, value): xinzhang's "cap+N" follows the cap option
    (5, "full_flush", 5), (5, "little_dragons", 6), (5, "big_dragons", 7), (5, "thirteen_orphans", 8),
    (4, "full_flush", 4), (4, "little_dragons", 5), (6, "big_winds", 9), (5, "heavenly", 6), (3, "heavenly", 6),
]


@pytest.mark.parametrize(("cap", "pid", "value"), CAP_RELATIVE_ROWS,
                         ids=[f"cap{r[0]}-{r[1]}" for r in CAP_RELATIVE_ROWS])
def test_cap_relative_values(cap, pid, value) -> None:
    assert rules.load("xinzhang", {"cap": cap}).table("specials")[pid] == value


FAN_OVERRIDE_ROWS = [
    # (rule set, overrides, table, pattern, value)
    ("jipinghu", {"all_chows": 2}, "hands", "all_chows", 2),
    ("jipinghu", {"full_flush": "cap+2"}, "specials", "full_flush", 5),
    ("jipinghu", {"self_draw": 0}, "extras", "self_draw", 0),
    ("jipinghu", {"full_flush": 64}, "specials", "full_flush", 64),  # the bound itself
    ("xinzhang", {"little_dragons": 9}, "specials", "little_dragons", 9),
    ("qianggang", {"all_pungs": 10}, "hands", "all_pungs", 10),
    ("qianggang", {"thirteen_orphans": 5}, "specials", "thirteen_orphans", 5),
    ("tuidaohu", {"four_ghosts": 8}, "fixed_points", "four_ghosts", 8),
]


@pytest.mark.parametrize(("name", "overrides", "table", "pid", "value"), FAN_OVERRIDE_ROWS,
                         ids=[f"{r[0]}-{r[3]}" for r in FAN_OVERRIDE_ROWS])
def test_fan_overrides(name, overrides, table, pid, value) -> None:
    assert rules.load(name, {"fans": overrides}).table(table)[pid] == value


def test_fan_override_changes_the_score() -> None:
    response = score({"options": {"fans": {"all_chows": 2}}, "hand": {"concealed": "123m456p789s234s11z"},
                      "context": {"win": "discard", "discarder": "2z"}})
    assert [(f["id"], f["fan"]) for f in response["fans"]] == [("all_chows", 2)]
    assert response["points"] == 4


BAD_OPTION_ROWS = [
    # (rule set, overrides, code)
    ("jipinghu", {"dora": 1}, "unknown_option"),
    ("tuidaohu", {"all_chows_suited_pair": True}, "unknown_option"),  # no chows to be all of
    ("qianggang", {"multi_win": "yes"}, "bad_option"),
    ("jipinghu", {"horse_dragons": "rules"}, "bad_option"),  # the old name of the house reading is gone
    ("qianggang", {"all_chows_suited_pair": True}, "unknown_option"),  # no chows (and no 平胡)
    ("jipinghu", {"fans": {"riichi": 1}}, "unknown_option"),
    ("jipinghu", {"fans": {"no_ghost": 1}}, "unknown_option"),  # a pattern jipinghu does not score
    ("jipinghu", {"cap": "3"}, "bad_option"),
    ("jipinghu", {"cap": 3.0}, "bad_option"),
    ("jipinghu", {"cap": True}, "bad_option"),
    ("jipinghu", {"cap": -2}, "bad_option"),
    ("jipinghu", {"cap": 65}, "bad_option"),
    ("jipinghu", {"min_fan": -1}, "bad_option"),
    ("jipinghu", {"chow": 1}, "bad_option"),
    ("jipinghu", {"seven_pairs": "yes"}, "bad_option"),
    ("jipinghu", {"ghosts": "red"}, "bad_option"),
    ("tuidaohu", {"horses_with_ghost": 1}, "bad_option"),
    ("tuidaohu", {"horses_without_ghost": 21}, "bad_option"),
    ("jipinghu", {"horse_dragons": "seed 000"}, "bad_option"),
    ("qianggang", {"horse_dragons": 1}, "bad_option"),
    ("jipinghu", {"fans": {"full_flush": 65}}, "bad_option"),
    ("jipinghu", {"fans": {"full_flush": "cap+100"}}, "bad_option"),
    ("jipinghu", {"fans": {"all_chows": -1}}, "bad_option"),
    ("jipinghu", {"fans": {"all_chows": 1.5}}, "bad_option"),
    ("jipinghu", {"fans": {"all_chows": True}}, "bad_option"),
    ("jipinghu", {"fans": {"all_chows": "cap-1"}}, "bad_option"),
    ("jipinghu", {"fans": ["all_chows"]}, "bad_option"),
    ("tuidaohu", {"fans": {"all_pungs": "cap+1"}}, "bad_option"),  # no cap to be relative to
    ("xinzhang", {"cap": -1}, "bad_option"),  # its cap-relative specials need a cap
]


@pytest.mark.parametrize(("name", "overrides", "code"), BAD_OPTION_ROWS,
                         ids=[f"{r[0]}-{next(iter(r[1]))}-{i}" for i, r in enumerate(BAD_OPTION_ROWS)])
def test_bad_options(name, overrides, code) -> None:
    with pytest.raises(ScoringError) as caught:
        rules.load(name, overrides)
    assert caught.value.code == code


@pytest.mark.parametrize(("good", "bad"), [
    ({"cap": 1}, {"cap": True}), ({"min_fan": 0}, {"min_fan": False}),
    ({"fans": {"chicken": 1}}, {"fans": {"chicken": True}}),
])
def test_overrides_are_built_once_and_still_checked(good, bad) -> None:
    """A rule set with the same overrides is built once and shared; a value equal to a good one but of another type
    (`true` == 1 in Python) is still refused."""
    assert rules.load("jipinghu", dict(good)) is rules.load("jipinghu", dict(good))
    with pytest.raises(ScoringError) as caught:
        rules.load("jipinghu", bad)
    assert caught.value.code == "bad_option"


@pytest.mark.parametrize("options", ["x", 5, ["cap"], True])
def test_options_must_be_an_object(options) -> None:
    with pytest.raises(ScoringError) as caught:
        score({"options": options, "hand": {"concealed": CHICKEN}})
    assert caught.value.code == "bad_option"


def test_unknown_ruleset() -> None:
    for name in ("riichi", "", "../jipinghu", None, ["jipinghu"]):
        with pytest.raises(ScoringError) as caught:
            rules.load(name)
        assert caught.value.code == "unknown_ruleset"


def test_loaded_rule_sets_are_immutable() -> None:
    ruleset = rules.load("jipinghu")
    with pytest.raises(TypeError):
        ruleset.options["cap"] = 9  # type: ignore[index]
    with pytest.raises(TypeError):
        ruleset.values["hands"]["chicken"] = 9  # type: ignore[index]
    rules.load("jipinghu", {"cap": 5, "fans": {"chicken": 2}})
    assert rules.load("jipinghu").options["cap"] == 3  # an override never leaks into the next request
    assert rules.load("jipinghu").table("hands")["chicken"] == 0


MALFORMED_ROWS = [
    # (id, raw file content, message fragment)
    ("unknown_key", {"name": "x", "zh": "z", "en": "e", "points": "doubling", "options": {}, "rogue": 1},
     "unknown key 'rogue'"),
    ("missing_options", {"name": "x", "zh": "z", "en": "e", "points": "doubling"}, "missing 'options'"),
    ("name_differs", {"name": "y", "zh": "z", "en": "e", "points": "doubling", "options": {}}, "differs"),
    ("bad_points", {"name": "x", "zh": "z", "en": "e", "points": "sum", "options": {}}, "points"),
    ("unknown_pattern", {"name": "x", "zh": "z", "en": "e", "points": "doubling", "options": {},
                         "hands": {"riichi": 1}}, "hands.riichi"),
    ("bad_kong_kind", {"name": "x", "zh": "z", "en": "e", "points": "doubling", "options": {},
                       "kongs": {"open": {"each": 1}}}, "kongs.open"),
    ("bad_kong_payer", {"name": "x", "zh": "z", "en": "e", "points": "doubling", "options": {},
                        "kongs": {"fed": {"winner": 1}}}, "kongs.fed"),
]


@pytest.mark.parametrize(("raw", "fragment"), [pytest.param(*r[1:], id=r[0]) for r in MALFORMED_ROWS])
def test_malformed_files_fail_loudly(raw, fragment) -> None:
    with pytest.raises(ValueError, match=None) as caught:
        rules._check_file("x", raw)
    assert fragment in str(caught.value)


# ---- every option of every rule set can be set: the request scores or is refused, never crashes --------------

def _alternatives(name: str) -> list[tuple[str, object]]:
    rows = []
    for key, default in rules.load(name).options.items():
        if type(default) is bool:
            rows.append((key, not default))
        elif key == "ghosts":
            rows += [(key, mode) for mode in rules.GHOST_MODES if mode != default]
        elif key in ("horses_with_ghost", "horses_without_ghost"):
            rows.append((key, 2))
        elif key == "horse_dragons":
            rows.append((key, "seed"))
        elif key == "cap":
            rows.append((key, 4))
        else:
            rows.append((key, 1))
    return rows


# regression: horses=true on jipinghu / xinzhang raised KeyError('horses_without_ghost')
TOGGLE_ROWS = [pytest.param(name, key, value, id=f"{name}-{key}={value}")
               for name in NAMES for key, value in _alternatives(name)]


@pytest.mark.parametrize(("name", "key", "value"), TOGGLE_ROWS)
def test_every_option_can_be_set(name, key, value) -> None:
    context = {"ghosts": {"flip": "3m", "flip2": "3m7m"}[value]} if key == "ghosts" and value in ("flip", "flip2") \
        else {}
    request = {"ruleset": name, "options": {key: value}, "hand": {"concealed": "111m222p333s444s99m"},
               "context": context}
    try:
        response = score(request)
    except ScoringError:
        return  # a clear refusal is fine (e.g. min_fan above the hand)
    assert response["options"][key] == value
    assert all(math.isfinite(v) for v in response["payments"].values())


def test_qianggang_min_fan_is_not_ignored() -> None:
    # regression: qianggang listed min_fan among its options but ignored it silently
    with pytest.raises(ScoringError):
        score({"ruleset": "qianggang", "options": {"min_fan": 5}, "hand": {"concealed": CHICKEN}})


# ---- a rule-set file is validated on load: values too, not only keys -------------------------------------------

BASE_FILE = {"name": "x", "zh": "z", "en": "e", "points": "doubling"}
FILE_VALUE_ROWS = [
    # (id, extra content of a file whose keys are all known but whose values are wrong, the key named)
    ("ghost_mode", {"options": {"ghosts": "rainbow"}}, "options.ghosts"),
    ("cap_type", {"options": {"cap": "3"}}, "options.cap"),
    ("min_fan_range", {"options": {"min_fan": -5}}, "options.min_fan"),
    ("horses_range", {"options": {"horses_with_ghost": 99}}, "options.horses_with_ghost"),
    ("horse_dragons_choice", {"options": {"horse_dragons": "000"}}, "options.horse_dragons"),
    ("fan_value_type", {"options": {}, "hands": {"chicken": "lots"}}, "hands.chicken"),
    ("fan_value_negative", {"options": {}, "specials": {"full_flush": -1}}, "specials.full_flush"),
    ("fan_value_too_large", {"options": {}, "specials": {"full_flush": 65}}, "specials.full_flush"),
    ("kong_units_type", {"options": {}, "kongs": {"fed": {"each": "x"}}}, "kongs.fed"),
    ("kong_units_negative", {"options": {}, "kongs": {"added": {"each": -1}}}, "kongs.added"),
]


# regression: rule-set files were checked for keys only; wrong values loaded silently and failed later per request
@pytest.mark.parametrize(("extra", "key"), [pytest.param(*r[1:], id=r[0]) for r in FILE_VALUE_ROWS])
def test_file_values_are_validated_on_load(extra, key) -> None:
    with pytest.raises(ValueError) as caught:
        rules._check_file("x", {**BASE_FILE, **extra})
    assert key in str(caught.value)


def test_good_file_values_load() -> None:
    rules._check_file("x", {**BASE_FILE, "options": {"cap": 64, "horse_dragons": "seed"},
                            "specials": {"full_flush": "cap+2", "big_winds": 64}, "hands": {"chicken": 0},
                            "kongs": {"fed": {"discarder": 3}, "added": {"each": 1}}})  # does not raise


# regression: options.fans values had no upper bound (full_flush=1024 made points 2**1024, OverflowError)
@pytest.mark.parametrize("value", [65, 1024, 10**7])
def test_huge_fan_override_is_refused(value) -> None:
    with pytest.raises(ScoringError) as caught:
        score({"options": {"fans": {"full_flush": value}}, "hand": {"concealed": "123m456m789m234m11m"}})
    assert caught.value.code == "bad_option"
