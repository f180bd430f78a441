"""Score a request: parse, validate, find every arrangement, take the best, settle the payments."""

from __future__ import annotations

from typing import Any

from fanshot.scoring import rules
from fanshot.scoring import tiles as t
from fanshot.scoring.decompose import Arrangement, arrangements
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.evaluate import Evaluation, evaluate
from fanshot.scoring.hand import Hand, WinContext, parse_context, parse_hand
from fanshot.scoring.patterns import PATTERNS, Situation
from fanshot.scoring.settle import Settlement, settle, tidy, tidy_amounts
from fanshot.scoring.validate import HAND_SIZE, check_context, check_melds, check_tiles, ghost_tiles, hand_size

REQUEST_FIELDS = ("ruleset", "options", "hand", "context")


def parse_request(request: Any) -> tuple[rules.Ruleset, Hand, WinContext]:
    if not isinstance(request, dict):
        raise ScoringError("bad_request", "the score request must be a JSON object")
    unknown = request.keys() - REQUEST_FIELDS
    if unknown:
        raise ScoringError("bad_request", f"unknown field(s) {sorted(unknown)}; allowed: {list(REQUEST_FIELDS)}")
    if "hand" not in request:
        raise ScoringError("bad_request", "hand: required", field="hand")
    ruleset = rules.load(request.get("ruleset", rules.DEFAULT_RULESET), request.get("options"))
    return ruleset, parse_hand(request["hand"]), parse_context(request.get("context", {}))


def candidates(ruleset: rules.Ruleset, hand: Hand, ghosts: tuple[str, ...]) -> list[Arrangement]:
    """Every arrangement of the hand, in a canonical order (the tie-break: the first best one wins)."""
    real = [code for code in hand.concealed if code not in ghosts] if ghosts else hand.concealed
    held = len(hand.concealed) - len(real)
    if held >= 4 and "four_ghosts" in ruleset.table("fixed_points"):
        # 满鬼 wins whatever the shape, at a fixed value: no reading of the tiles can change it
        counts = t.counts([*real, *(code for m in hand.melds for code in m.tiles)])
        return [Arrangement("four_ghosts", (), tuple(counts))]
    options = ruleset.options
    found = arrangements(t.counts(real), held, hand.melds, seven_pairs=options["seven_pairs"],
                         seven_pairs_quads=options["seven_pairs_quads"])
    return sorted(found, key=lambda a: (a.shape, a.groups)) if len(found) > 1 else found


def instant_win(ruleset: rules.Ruleset, hand: Hand, context: WinContext,
                ghosts: tuple[str, ...]) -> Arrangement | None:
    """The reading of an instant win (花胡, 八仙过海) when one of the rule set's applies: the standing tiles need form
    no shape, and need not be complete."""
    if not ruleset.instant_wins:
        return None
    arrangement = Arrangement("instant", (), tuple(t.counts(hand.all_tiles())))
    situation = Situation(arrangement, hand, context, ruleset.options, ghosts, 0)
    return arrangement if any(PATTERNS[pid].applies(situation) for pid in ruleset.instant_wins) else None


def best(ruleset: rules.Ruleset, hand: Hand, context: WinContext,
         ghosts: tuple[str, ...]) -> tuple[Arrangement, Evaluation]:
    held = sum(1 for code in hand.concealed if code in ghosts) if ghosts else 0
    instant = instant_win(ruleset, hand, context, ghosts)
    complete = hand_size(hand) == HAND_SIZE
    found = [*(candidates(ruleset, hand, ghosts) if complete else ()), *((instant,) if instant else ())]
    if not found:
        raise ScoringError("not_winning", f"{t.to_string(hand.concealed)} with {len(hand.melds)} meld(s) forms "
                           f"no winning shape under {ruleset.name}")
    scored = [(a, evaluate(ruleset, Situation(a, hand, context, ruleset.options, ghosts, held)))
              for a in found]
    if len(scored) == 1:
        return scored[0]
    top = max(evaluation.rank for _, evaluation in scored)
    # Among equally valued readings, the one whose patterns the rule set lists first: the tiles' own order would
    # name a different pattern once the suits are swapped (111m 111p 99s with 9s as ghosts: 碰碰胡 or 清幺九).
    return min((pair for pair in scored if pair[1].rank == top), key=lambda pair: _listing(ruleset, pair[1]))


def _listing(ruleset: rules.Ruleset, evaluation: Evaluation) -> tuple[int, ...]:
    """The rule set's positions of a reading's patterns, in order."""
    return tuple(sorted(ruleset.entries_of[item.id][0][0] for item in evaluation.items))


def win_value(ruleset: rules.Ruleset, hand: Hand, context: WinContext,
              ghosts: tuple[str, ...]) -> tuple[Arrangement, Evaluation]:
    """The best arrangement of a checked hand and its value; refused below the rule set's minimum fan (counted
    without the bonus-tile fan where option `bonus_count_to_min` is false)."""
    arrangement, evaluation = best(ruleset, hand, context, ghosts)
    min_fan = ruleset.options.get("min_fan", 0)
    counted = evaluation.fan_total
    if not ruleset.options.get("bonus_count_to_min", True):
        counted = min(counted, sum(item.fan for item in evaluation.items if not PATTERNS[item.id].bonus_tiles))
    if not evaluation.limit and counted < min_fan:
        without = "" if counted == evaluation.fan_total else f" ({counted} without the flowers' fan)"
        raise ScoringError("below_minimum_fan", f"the hand is worth {evaluation.fan_total} fan{without}; rule set "
                           f"{ruleset.name} needs at least {min_fan} to win (options.min_fan)", expected=min_fan,
                           given=counted)
    return arrangement, evaluation


def _warnings(ruleset: rules.Ruleset, context: WinContext) -> list[str]:
    return [f"{name} ({ruleset.names.get(name, PATTERNS[name].zh)}) has no value in rule set {ruleset.name}"
            for name in sorted(context.special) if name not in ruleset.scored and name != "robbing_kong"]


# Amounts are exact up to here: beyond, floats round and JSON readers (JavaScript numbers) lose units.
MAX_AMOUNT = 2**53 - 1


def _check_amounts(points: float, settlement: Settlement) -> None:
    """Refuse a hand whose points or payments would not be exact (a huge stake unit or fan value), rather than
    answering with a rounded amount."""
    amounts = (points, settlement.per_payer, *settlement.payments.values(), *settlement.kong_payments.values())
    largest = max(abs(amount) for amount in amounts)
    if largest > MAX_AMOUNT:
        raise ScoringError("bad_context", f"the amounts reach {largest:.3g}, more than {MAX_AMOUNT} (2^53 - 1), the "
                           "largest that stays exact: lower context.stake (unit, or the stakes) or the fan values "
                           "in options.fans", field="context.stake", reason="amount")


def score(request: Any) -> dict[str, Any]:
    """The score response for a score request (docs/API.md); raises ScoringError for any invalid input."""
    ruleset, hand, context = parse_request(request)
    ghosts = ghost_tiles(ruleset, context)
    check_tiles(ruleset, hand, context, instant=instant_win(ruleset, hand, context, ghosts) is not None)
    check_melds(ruleset, hand, context)
    check_context(ruleset, hand, context)
    arrangement, evaluation = win_value(ruleset, hand, context, ghosts)
    horses_expected = _expected_horses(ruleset, hand, ghosts)
    if context.horses is not None and len(context.horses) != horses_expected:
        raise ScoringError("bad_context", f"context.horses: {horses_expected} horses are drawn for this hand "
                           f"(options horses_with_ghost / horses_without_ghost), got {len(context.horses)}",
                           field="context.horses", reason="count", expected=horses_expected,
                           given=len(context.horses))
    settlement = settle(ruleset, hand, context, evaluation.points)
    _check_amounts(evaluation.points, settlement)
    options, values = ruleset.plain_tables
    return {
        "ruleset": ruleset.name,
        "ruleset_names": {"zh": ruleset.zh, "en": ruleset.en},
        "options": options.copy(),
        "fan_values": {table: table_values.copy() for table, table_values in values.items()},
        "fans": [item.as_dict() for item in evaluation.items],
        "fan_total": evaluation.fan_total,
        "capped": evaluation.capped,
        "limit": evaluation.limit,
        "points": tidy(evaluation.points),
        "stake": _stake_in_force(ruleset, context),
        "per_payer": settlement.per_payer,
        "per_payer_parts": settlement.parts,
        "payments": settlement.payments,
        "fees": settlement.fees,
        "kong_payments": settlement.kong_payments,
        "liable": settlement.liable,
        "horses": None if context.horses is None else {"tiles": t.to_string(context.horses),
                                                        "hits": settlement.horse_hits},
        "ghosts": t.to_string(ghosts) if ghosts else "",
        "decomposition": arrangement.describe(),
        "warnings": _warnings(ruleset, context) if context.special else [],
    }


def _stake_in_force(ruleset: rules.Ruleset, context: WinContext) -> dict[str, float]:
    """unit and fee; the `stakes` model adds its three stake numbers (flower, kong, chicken)."""
    keys = ("unit", "fee", "flower", "kong", "chicken") if ruleset.points == "stakes" else ("unit", "fee")
    return tidy_amounts({key: getattr(context.stake, key) for key in keys})


def _expected_horses(ruleset: rules.Ruleset, hand: Hand, ghosts: tuple[str, ...]) -> int | None:
    if not ruleset.options["horses"]:
        return None
    holds_ghost = any(code in ghosts for code in hand.concealed)
    return ruleset.options["horses_with_ghost" if holds_ghost else "horses_without_ghost"]
