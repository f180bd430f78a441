"""Value of one arrangement under a rule set: which patterns count, the fan total, the cap, the points."""

from __future__ import annotations

from typing import NamedTuple

from scoring.patterns import PATTERNS, Situation
from scoring.rules import Ruleset


class FanItem(NamedTuple):
    id: str
    zh: str
    en: str
    fan: int
    kind: str  # the rule-set table it comes from: hands, extras, specials, bonuses, floors, fixed_points

    def as_dict(self) -> dict:
        return {"id": self.id, "zh": self.zh, "en": self.en, "fan": self.fan, "kind": self.kind}


class Evaluation(NamedTuple):
    items: tuple[FanItem, ...]
    fan_total: int
    capped: bool  # the within-cap total was clamped to the cap
    limit: bool  # a special hand (beyond the cap) or a fixed-points win decided the value
    points: float  # the hand's value per paying player in points (2**fan, or the fixed points), before horses,
    # flowers and kongs; scoring.settle turns it into money

    @property
    def rank(self) -> tuple[float, int]:
        return self.points, self.fan_total


def _item(pid: str, value: int, table: str) -> FanItem:
    p = PATTERNS[pid]
    return FanItem(pid, p.zh, p.en, value, table)


def _applying(ruleset: Ruleset, situation: Situation) -> dict[str, int]:
    """Pattern id -> times it applies, after precedence (`excludes`) among the rule set's patterns."""
    found = {pid: n for pid, applies in ruleset.predicates[situation.facts] if (n := applies(situation))}
    found.update(dict.fromkeys(situation.context.special & ruleset.special_wins, 1))
    excluded = {other for pid in found for other in PATTERNS[pid].excludes}
    return {pid: n for pid, n in found.items() if pid not in excluded}


def evaluate(ruleset: Ruleset, situation: Situation) -> Evaluation:
    applying = _applying(ruleset, situation)
    valued = [(table, pid, value) for table, pid, value in ruleset.entries if pid in applying]

    def items_of(table: str) -> list[FanItem]:
        return [_item(pid, value * applying[pid], table) for home, pid, value in valued if home == table]

    fixed = items_of("fixed_points")
    if fixed:
        best = max(fixed, key=lambda item: item.fan)
        return Evaluation((best,), 0, False, True, best.fan)

    specials = items_of("specials")
    cap = ruleset.cap
    if specials:
        # special hands do not stack: the single highest (the earlier-listed one on a tie)
        best = max(specials, key=lambda item: item.fan)
        items, total, capped, limit = [best], best.fan, False, True
    else:
        items = items_of("hands") + items_of("extras")
        raw = sum(item.fan for item in items)
        capped = cap is not None and raw > cap
        total, limit = (min(raw, cap) if cap is not None else raw), False

    bonuses = items_of("bonuses")
    items += bonuses
    total += sum(item.fan for item in bonuses)

    floors = items_of("floors")
    if floors and (floor := max(floors, key=lambda item: item.fan)).fan > total:
        items.append(floor)  # listed only when it raises the hand: the items then explain the total
        total = floor.fan
    return Evaluation(tuple(items), total, capped, limit, 2 ** total)
