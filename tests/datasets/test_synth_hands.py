"""fanshot.datasets.synth.hands: seeded random legal winning hands, every one of which scores without error."""

import random
from collections import Counter

import pytest

from fanshot.datasets.synth.hands import KINDS, RULESETS, corpus, kinds_for, random_request
from fanshot.scoring import score
from fanshot.scoring import tiles as t

SEEDS = range(300)


def _tiles(request: dict) -> list[str]:
    hand = request["hand"]
    return t.parse(hand["concealed"]) + [code for meld in hand.get("melds", []) for code in t.parse(meld["tiles"])]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_request_scores(ruleset: str) -> None:
    for seed in SEEDS:
        request = random_request(random.Random(seed), ruleset)
        assert score(request)["ruleset"] == ruleset, request


@pytest.mark.parametrize("ruleset", RULESETS)
def test_never_a_fifth_copy(ruleset: str) -> None:
    for request in corpus(200, seed=3, ruleset=ruleset):
        seen = Counter(_tiles(request) + t.parse(request["context"].get("horses", "")))
        assert max(seen.values()) <= 4, request
        flowers = t.parse(request["hand"].get("flowers", ""), allow_flowers=True)
        assert len(flowers) == len(set(flowers)), request


def test_corpus_is_reproducible_and_prefix_stable() -> None:
    assert corpus(40, seed=11) == corpus(40, seed=11)
    assert corpus(40, seed=11)[:25] == corpus(25, seed=11)
    assert corpus(40, seed=11) != corpus(40, seed=12)
    assert [r["ruleset"] for r in corpus(8, seed=0)] == list(RULESETS) * 2


def test_kinds_follow_the_rule_set() -> None:
    assert "seven_pairs" in kinds_for("tuidaohu")
    assert set(KINDS) - set(kinds_for("jipinghu")) == {"seven_pairs"}
    with pytest.raises(ValueError, match="seven_pairs"):
        random_request(random.Random(0), "jipinghu", kinds=["seven_pairs"])
    with pytest.raises(ValueError):
        random_request(random.Random(0), "jipinghu", kinds=[])


def _suits(codes: list[str]) -> set[str]:
    return {t.suit(code) for code in codes}


def _little(codes: list[str], honours: tuple[str, ...]) -> bool:
    """Every honour of the group in a pung or kong but one, which is the pair."""
    counts = sorted(Counter(codes)[c] for c in honours)
    return counts[0] == 2 and counts[1] >= 3


def _pungs_and_pair(request: dict) -> bool:
    counts = Counter(t.parse(request["hand"]["concealed"]))
    no_chow = all(meld["kind"] != "chow" for meld in request["hand"].get("melds", []))
    return no_chow and sorted(counts.values()).count(2) == 1 and set(counts.values()) <= {2, 3}


# kind -> a fact about the generated tiles (jipinghu: no ghosts, so the tiles are what they show)
KIND_FACTS = {
    "all_pungs": lambda r, c: _pungs_and_pair(r),
    "half_flush": lambda r, c: len(_suits(c) - {"z"}) == 1 and "z" in _suits(c),
    "full_flush": lambda r, c: len(_suits(c)) == 1 and "z" not in _suits(c),
    "nine_gates": lambda r, c: len(_suits(c)) == 1 and not r["hand"].get("melds"),
    "all_honours": lambda r, c: _suits(c) == {"z"},
    "terminals": lambda r, c: all(t.is_terminal(x) or t.is_honour(x) for x in c),
    "thirteen_orphans": lambda r, c: set(c) == set(t.TERMINALS + t.HONOUR_TILES) and len(c) == 14,
    "big_winds": lambda r, c: all(c.count(w) >= 3 for w in t.WINDS),
    "little_winds": lambda r, c: _little(c, t.WINDS),
    "big_dragons": lambda r, c: all(c.count(d) >= 3 for d in t.DRAGONS),
    "little_dragons": lambda r, c: _little(c, t.DRAGONS),
}


@pytest.mark.parametrize("kind", sorted(KIND_FACTS))
def test_kind_shapes(kind: str) -> None:
    for seed in range(40):
        request = random_request(random.Random(seed), "jipinghu", kinds=[kind])
        assert KIND_FACTS[kind](request, _tiles(request)), request


def test_seven_pairs_are_pairs() -> None:
    for seed in range(40):
        request = random_request(random.Random(seed), "tuidaohu", kinds=["seven_pairs"])
        if "ghosts" not in request.get("options", {}):
            assert all(n % 2 == 0 for n in Counter(t.parse(request["hand"]["concealed"])).values()), request


def test_robbed_tile_is_held_once_and_never_a_horse() -> None:
    robbed = [r for r in corpus(2000, seed=5) if "robbing_kong" in r["context"].get("special", [])]
    assert robbed
    for request in robbed:
        winning = request["hand"]["winning_tile"]
        assert _tiles(request).count(winning) == 1
        assert winning not in t.parse(request["context"].get("horses", ""))


def _features(request: dict) -> set[str]:
    hand, context = request["hand"], request["context"]
    found = {f"win:{context['win']}", *(f"special:{s}" for s in context.get("special", []))}
    for meld in hand.get("melds", []):
        style = "concealed" if meld.get("concealed") else "added" if meld.get("added") else "fed"
        found.add(f"meld:{meld['kind']}" + (f":{style}" if meld["kind"] == "kong" else ""))
    found |= {f"ghosts:{request['options']['ghosts']}"} if "ghosts" in request.get("options", {}) else set()
    found |= {"flowers"} if hand.get("flowers") else set()
    found |= {"horses"} if "horses" in context else set()
    found |= {"kong_fed_by"} if "kong_fed_by" in context else set()
    found |= {"fee"} if context.get("stake", {}).get("fee") else set()
    return found


def test_corpus_covers_every_feature() -> None:
    seen = set().union(*map(_features, corpus(3000, seed=1)))
    expected = {"win:self_draw", "win:discard", "meld:chow", "meld:pung", "meld:kong:fed", "meld:kong:added",
                "meld:kong:concealed", "ghosts:white", "ghosts:flip", "ghosts:flip2", "flowers", "horses",
                "kong_fed_by", "fee"}
    expected |= {f"special:{s}" for s in ("kong_replacement", "last_tile", "robbing_kong", "heavenly", "earthly",
                                          "human", "multi_win")}
    assert expected <= seen, expected - seen


def test_multi_win_under_jiehu_comes_with_the_option() -> None:
    # qianggang plays 截胡 (seed 003 line 3), so a generated 一炮三响 must allow it (options.multi_win)
    multi = [r for r in corpus(400, seed=5, ruleset="qianggang") if r["context"].get("special") == ["multi_win"]]
    assert multi
    assert all(r["options"]["multi_win"] is True for r in multi)
