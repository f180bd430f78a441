"""The scorer's names in Traditional characters, as Cantonese-speaking players say them (issue 49: the page's
zh-Hant): every pattern, tile and rule set has one, and none writes a Simplified-only character."""

from pathlib import Path

import pytest

from fanshot.scoring import ruleset_summaries, score
from fanshot.scoring.patterns import PATTERNS
from fanshot.scoring.rules import load, ruleset_names
from fanshot.scoring.tiles import DETECTOR_CLASSES, name_hant

SIMPLIFIED_ONLY = set("".join(line for line in (Path(__file__).parents[1] / "simplified_only.txt").read_text(
    encoding="utf-8").splitlines() if not line.startswith("#")))


def simplified(text: str) -> set[str]:
    return set(text) & SIMPLIFIED_ONLY


def test_every_pattern_has_a_cantonese_name_in_traditional_characters():
    assert all(pattern.zh_hant and not simplified(pattern.zh_hant) for pattern in PATTERNS.values())
    said = {PATTERNS[pid].zh_hant for pid in ("chicken", "all_chows", "all_pungs", "half_flush", "full_flush",
                                              "thirteen_orphans", "self_draw", "robbing_kong", "kong_replacement")}
    assert said == {"雞糊", "平糊", "對對糊", "混一色", "清一色", "十三么", "自摸", "搶槓", "槓上開花"}


def test_every_tile_has_a_traditional_name():
    assert not simplified("".join(name_hant(code) for code in DETECTOR_CLASSES))
    named = [name_hant(code) for code in ("5m", "7p", "3s", "1z", "6z", "2f")]
    assert named == ["五萬", "七筒", "三索", "東", "發", "蘭"]


@pytest.mark.parametrize("name", ruleset_names())
def test_every_rule_set_names_itself_and_its_patterns_in_traditional(name):
    ruleset = load(name)
    assert ruleset.zh_hant and not simplified(ruleset.zh_hant)
    assert not simplified("".join(zh_hant for entries in ruleset.entries_of.values() for *_, zh_hant in entries))


def test_a_scored_hand_and_the_listing_carry_the_traditional_names():
    response = score({"hand": {"concealed": "123m456p789s222s55z"}, "context": {"win": "self_draw"}})
    assert [(item["zh"], item["zh_hant"]) for item in response["fans"]] == [("鸡胡", "雞糊"), ("自摸", "自摸")]
    assert response["ruleset_names"]["zh_hant"] == "雞平糊"
    assert {summary["name"]: summary["zh_hant"] for summary in ruleset_summaries()}["hongkong"] == "香港舊章"
