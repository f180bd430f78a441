"""Properties of the scorer over random legal winning hands (datasets.synth.hands), checked with hypothesis."""

import math
import random
from collections import Counter
from itertools import combinations_with_replacement

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fanshot.datasets.synth.hands import RULESETS, random_request
from fanshot.scoring import score
from fanshot.scoring import tiles as t
from fanshot.scoring.evaluate import evaluate
from fanshot.scoring.patterns import Situation
from fanshot.scoring.score import candidates, parse_request
from fanshot.scoring.validate import ghost_tiles

# Ghost-heavy 推倒胡 hands take up to a second each, so no deadline; few examples keep the file at a few seconds.
PROPERTY = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
rulesets = st.sampled_from(RULESETS)


def _request(seed: int, ruleset: str) -> dict:
    return random_request(random.Random(seed), ruleset)


def _parsed(request: dict) -> tuple:
    """The request as the scorer sees it: rule set, hand, context and the ghost tiles in force."""
    rules, hand, context = parse_request(request)
    return rules, hand, context, ghost_tiles(rules, context)


def _shuffled(notation: str, rnd: random.Random) -> str:
    codes = t.parse(notation)
    rnd.shuffle(codes)
    return "".join(codes)  # `3m1p2m` is valid compact notation too


def _without(response: dict, *keys: str) -> dict:
    return {key: value for key, value in response.items() if key not in keys}


# ---- tile order never matters ---------------------------------------------------------------------------------

@PROPERTY
@given(seed=seeds, ruleset=rulesets, rnd=st.randoms(use_true_random=False))
def test_tile_order_never_matters(seed: int, ruleset: str, rnd: random.Random) -> None:
    request = _request(seed, ruleset)
    hand = request["hand"]
    shuffled = {**request, "hand": {**hand, "concealed": _shuffled(hand["concealed"], rnd),
                                    "melds": [{**m, "tiles": _shuffled(m["tiles"], rnd)} for m in hand["melds"]]}}
    assert score(shuffled) == score(request)


@PROPERTY
@given(seed=seeds, ruleset=rulesets, rnd=st.randoms(use_true_random=False))
def test_meld_order_never_changes_the_value(seed: int, ruleset: str, rnd: random.Random) -> None:
    """Meld order is claim order: it may only change WHO is liable under 包 (the feeder of the last meld)."""
    request = _request(seed, ruleset)
    melds = list(request["hand"]["melds"])
    rnd.shuffle(melds)
    original, reordered = score(request), score({**request, "hand": {**request["hand"], "melds": melds}})
    if original["liable"] is None and reordered["liable"] is None:
        assert reordered == original
    else:
        assert _without(reordered, "payments", "liable") == _without(original, "payments", "liable")


# ---- the result is the maximum over decompositions -------------------------------------------------------------

@PROPERTY
@given(seed=seeds, ruleset=rulesets)
def test_result_is_the_best_decomposition(seed: int, ruleset: str) -> None:
    request = _request(seed, ruleset)
    rules, hand, context, ghosts = _parsed(request)
    held = sum(code in ghosts for code in hand.concealed)
    scored = [(a, evaluate(rules, Situation(a, hand, context, rules.options, ghosts, held)))
              for a in candidates(rules, hand, ghosts)]
    best_rank = max(evaluation.rank for _, evaluation in scored)
    first_best = next(a for a, evaluation in scored if evaluation.rank == best_rank)  # the documented tie-break
    response = score(request)
    assert (response["points"], response["fan_total"]) == best_rank
    assert response["decomposition"] == first_best.describe()


def _brute_force_standard(concealed: list[str], melds: list[dict]) -> set[tuple]:
    """Every 4 sets + pair reading, by trying every multiset of the sets the tiles could hold (no ghosts)."""
    counts = Counter(t.INDEX[code] for code in concealed)
    possible = sorted({("pung", i) for i, n in counts.items() if n >= 3}
                      | {("chow", i) for i in counts if i < 27 and i % 9 < 7 and counts[i + 1] and counts[i + 2]})
    meld_groups = [(m["kind"], t.INDEX[t.parse(m["tiles"])[0]]) for m in melds]
    found = set()
    for chosen in combinations_with_replacement(possible, 4 - len(melds)):
        for pair in (i for i, n in counts.items() if n >= 2):
            used = Counter({pair: 2})
            for kind, first in chosen:
                used.update([first, first + 1, first + 2] if kind == "chow" else [first] * 3)
            if used == counts:
                found.add(tuple(sorted([*chosen, ("pair", pair), *meld_groups])))
    return found


@PROPERTY
@given(seed=seeds, ruleset=rulesets)
def test_every_standard_decomposition_is_found(seed: int, ruleset: str) -> None:
    request = _request(seed, ruleset)
    rules, hand, context, ghosts = _parsed(request)
    if any(code in ghosts for code in hand.concealed):
        return  # ghosts: the brute force below knows no wildcards
    found = {tuple(sorted((g.kind, g.first) for g in a.groups))
             for a in candidates(rules, hand, ghosts) if a.shape == "standard"}
    assert found == _brute_force_standard(list(hand.concealed), request["hand"]["melds"])


# ---- payments, cap -------------------------------------------------------------------------------------------

@PROPERTY
@given(seed=seeds, ruleset=rulesets)
def test_payments_sum_to_zero_apart_from_fees(seed: int, ruleset: str) -> None:
    request = _request(seed, ruleset)
    response = score(request)
    fee = request["context"].get("stake", {}).get("fee", 0)
    assert math.isclose(sum(response["payments"].values()), -4 * fee, abs_tol=1e-6)
    winner = request["context"]["seat_wind"]
    assert all(amount <= -fee + 1e-9 for seat, amount in response["payments"].items() if seat != winner)
    assert response["payments"][winner] > -fee


@PROPERTY
@given(seed=seeds, ruleset=st.sampled_from(["jipinghu", "xinzhang"]))
def test_the_cap_holds(seed: int, ruleset: str) -> None:
    """Within-cap hands never pass the cap; special-win floors (documented: "a smaller hand counts as this many")
    are the only thing that could, and they are at most the cap in both rule sets. Specials never stack."""
    response = score(_request(seed, ruleset))
    cap, fans = response["options"]["cap"], response["fans"]
    floor = max((item["fan"] for item in fans if item["kind"] == "floors"), default=0)
    assert response["points"] == 2 ** response["fan_total"]
    if response["limit"]:
        assert [item["kind"] for item in fans].count("specials") == 1
    else:
        assert response["fan_total"] <= max(cap, floor)
        assert not any(item["kind"] == "specials" for item in fans)
    if response["capped"]:
        assert sum(item["fan"] for item in fans if item["kind"] in ("hands", "extras")) > cap
        assert response["fan_total"] == max(cap, floor)


# ---- swapping suits ------------------------------------------------------------------------------------------

def _swap_suits(request: dict, mapping: dict[str, str]) -> dict:
    def swap(notation: str) -> str:
        return "".join(code[0] + mapping.get(code[1], code[1]) for code in t.parse(notation))

    hand, context = request["hand"], request["context"]
    swapped_context = {**context, **{key: swap(context[key]) for key in ("ghosts", "horses") if key in context}}
    return {**request, "context": swapped_context,
            "hand": {**hand, "concealed": swap(hand["concealed"]), "winning_tile": swap(hand["winning_tile"]),
                     "melds": [{**m, "tiles": swap(m["tiles"])} for m in hand["melds"]]}}


VALUE_KEYS = ("fans", "fan_total", "capped", "limit", "points", "per_payer", "payments", "fees", "kong_payments",
              "liable")


@PROPERTY
@given(seed=seeds, ruleset=rulesets, suits=st.permutations(t.SUITS))
# 111m 111p 99s with 9s as ghosts: 碰碰胡 and 清幺九 tie at 1 fan; the tiles' order once named one, swapped the other
@example(seed=6369, ruleset="tuidaohu", suits=["p", "s", "m"])
def test_swapping_suits_never_changes_the_score(seed: int, ruleset: str, suits: list[str]) -> None:
    """Asked for jipinghu; it holds in every rule set (horses count by rank, ghosts are swapped too)."""
    request = _request(seed, ruleset)
    original, swapped = score(request), score(_swap_suits(request, dict(zip(t.SUITS, suits, strict=True))))
    assert {k: swapped[k] for k in VALUE_KEYS} == {k: original[k] for k in VALUE_KEYS}
    assert (swapped["horses"] or {}).get("hits") == (original["horses"] or {}).get("hits")
