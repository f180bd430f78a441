"""Value of one arrangement under a rule set: which patterns count, the fan total, the cap, the points."""

from __future__ import annotations

from typing import NamedTuple

from fanshot.scoring.patterns import Situation
from fanshot.scoring.rules import Ruleset


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
    points: float  # the hand's value per paying player in points (2**fan, the hk table, or the fixed points),
    # before horses, flowers and kongs; scoring.settle turns it into money

    @property
    def rank(self) -> tuple[float, int]:
        return self.points, self.fan_total


def _applying(ruleset: Ruleset, situation: Situation) -> dict[str, int]:
    """Pattern id -> times it applies, after precedence (`excludes`) among the rule set's patterns."""
    found: dict[str, int] = {}
    excluded: set[str] = set()
    for pid, applies, excludes in ruleset.predicates[situation.facts]:
        if n := applies(situation):
            found[pid] = n
            excluded.update(excludes)
    if situation.context.special:  # special wins apply by name; their precedence is the rule set's
        for pid in situation.context.special & ruleset.special_wins:
            found[pid] = 1
            excluded.update(ruleset.excludes_of(pid))
    return {pid: n for pid, n in found.items() if pid not in excluded} if excluded else found


def _items_by_table(ruleset: Ruleset, applying: dict[str, int]) -> dict[str, list[FanItem]]:
    """Table -> the items of the applying patterns valued there, each table in the rule set's order."""
    by_table: dict[str, list[FanItem]] = {}
    for _, table, pid, value, zh, en in sorted(entry for found in applying for entry in ruleset.entries_of[found]):
        by_table.setdefault(table, []).append(FanItem(pid, zh, en, value * applying[pid], table))
    return by_table


def evaluate(ruleset: Ruleset, situation: Situation) -> Evaluation:
    by_table = _items_by_table(ruleset, _applying(ruleset, situation))
    fixed = by_table.get("fixed_points")
    if fixed:
        best = max(fixed, key=lambda item: item.fan)
        return Evaluation((best,), 0, False, True, best.fan)

    specials = by_table.get("specials")
    cap = ruleset.cap
    clamp_total = ruleset.clamp == "total"
    if specials:
        # special hands do not stack: the single highest (the earlier-listed one on a tie)
        best = max(specials, key=lambda item: item.fan)
        items, total, capped, limit = [best], best.fan, False, True
    else:
        items = by_table.get("hands", []) + by_table.get("extras", [])
        total, capped, limit = sum([item.fan for item in items]), False, False
        if not clamp_total:
            total, capped = _clamped(total, cap)

    bonuses = by_table.get("bonuses")
    if bonuses:
        items += bonuses
        total += sum([item.fan for item in bonuses])
    if clamp_total:  # the cap clamps everything, win circumstances included (docs/RULES.md rule set 5)
        total, capped = _clamped(total, cap)

    floors = by_table.get("floors")
    if floors and (floor := max(floors, key=lambda item: item.fan)).fan > total:
        items.append(floor)  # listed only when it raises the hand: the items then explain the total
        total = floor.fan
    return Evaluation(tuple(items), total, capped, limit, ruleset.points_of(total))


def _clamped(total: int, cap: int | None) -> tuple[int, bool]:
    """The total held to the cap, and whether it was over."""
    return (total, False) if cap is None or total <= cap else (cap, True)
