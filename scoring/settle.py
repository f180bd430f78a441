"""Who pays whom: self-draw and discard shares, 包 liability, horses, kong payments, stake unit and fees."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring import tiles as t
from scoring.hand import Hand, Meld, WinContext
from scoring.rules import Ruleset

# A horse names a seat counted from the dealer: 1 5 9 东 -> dealer, 2 6 南 -> next, 3 7 西 -> opposite,
# 4 8 北 -> previous. The dragons differ between the sources, so the rule sets choose (option horse_dragons):
# RULES.md: 中 -> dealer, 發 -> next, 白 -> opposite; seed 000 (星辰): 中 -> next, 發 -> opposite, 白 -> previous.
WIND_HORSE_OFFSETS = {"1z": 0, "2z": 1, "3z": 2, "4z": 3}
DRAGON_HORSE_OFFSETS = {"rules": {"7z": 0, "6z": 1, "5z": 2}, "seed": {"7z": 1, "6z": 2, "5z": 3}}


@dataclass
class Settlement:
    payments: dict[str, float]
    per_payer: float  # the hand's amount per paying player, horses included, in stake money
    horse_hits: int | None
    liable: str | None
    kong_payments: dict[str, float] = field(default_factory=dict)
    fees: dict[str, float] = field(default_factory=dict)


def horse_offset(code: str, dragons: str = "rules") -> int:
    if code in WIND_HORSE_OFFSETS:
        return WIND_HORSE_OFFSETS[code]
    if t.is_honour(code):
        return DRAGON_HORSE_OFFSETS[dragons][code]
    return (t.rank(code) - 1) % 4


def horse_hits(horses: tuple[str, ...], winner: str, dragons: str = "rules") -> int:
    """Horses that name the winner's seat (offset from the dealer, who sits at 1z)."""
    return sum(1 for code in horses if horse_offset(code, dragons) == t.SEATS.index(winner))


def others(seat: str) -> list[str]:
    return [s for s in t.SEATS if s != seat]


def _last_exposed_feeder(melds: tuple[Meld, ...], winner: str, indices: set[str] | None = None) -> str | None:
    """The feeder of the last exposed meld (of the given tiles), the one that completed the liability."""
    exposed = [m for m in melds if not m.concealed and (indices is None or m.first in indices)]
    if not exposed:
        return None
    last = exposed[-1]
    if last.kind == "chow" and last.fed_by is None:
        return t.SEATS[(t.SEATS.index(winner) - 1) % 4]  # a chow is claimed only from the previous player
    return last.fed_by


def liable_seat(ruleset: Ruleset, hand: Hand, context: WinContext) -> str | None:
    """The seat that pays for all three under a 包 rule, if any (an explicit `liable` has been validated)."""
    if context.liable:
        return context.liable
    if "robbing_kong" in context.special:
        return context.discarder  # the player whose kong was robbed
    if "kong_replacement" in context.special:
        # 杠上开花包杠: the discarder of the kong just made (the last kong listed), when it was a 点杠
        last_kong = [m for m in hand.melds if m.kind == "kong"][-1]
        feeder = context.kong_fed_by or (None if last_kong.concealed or last_kong.added else last_kong.fed_by)
        if feeder:
            return feeder
    if context.win != "self_draw":
        return None
    options = ruleset.options
    # four exposed wind melds are 大四喜, three exposed dragon melds 大三元, whatever else the hand scores
    for honours, complete in ((t.WINDS, 4), (t.DRAGONS, 3)):
        shown = [m for m in hand.exposed_melds if m.first in honours]
        if options["liability_big_hands"] and len(shown) == complete:
            return _last_exposed_feeder(hand.melds, context.seat_wind, set(honours))
    if options["liability_twelve_tiles"] and len(hand.exposed_melds) == 4:
        return _last_exposed_feeder(hand.melds, context.seat_wind)  # 包先不包后: the feeder of the fourth meld
    return None


def _hand_payments(ruleset: Ruleset, context: WinContext, amount: float, liable: str | None) -> dict[str, float]:
    winner = context.seat_wind
    if liable:
        shares = {liable: amount * 3}
    elif context.win == "self_draw":
        shares = dict.fromkeys(others(winner), amount)
    elif ruleset.options["discard_pays_all"] and "multi_win" not in context.special:
        shares = {context.discarder: amount * 3}
    else:
        shares = {context.discarder: amount}
    return shares


def _kong_payments(ruleset: Ruleset, hand: Hand, context: WinContext, money: float) -> dict[str, float]:
    """Payers of the winner's kongs: seat -> amount (kong units x stake money)."""
    owed: dict[str, float] = {}
    for meld in hand.melds:
        if meld.kind != "kong":
            continue
        kind = "concealed" if meld.concealed else "added" if meld.added else "fed"
        for payer, units in ruleset.kongs.get(kind, {}).items():
            seats = others(context.seat_wind) if payer == "each" else [meld.fed_by]
            for seat in seats:
                owed[seat] = owed.get(seat, 0) + units * money
    return owed


def settle(ruleset: Ruleset, hand: Hand, context: WinContext, points: float) -> Settlement:
    stake = context.stake
    hits = None if context.horses is None else \
        horse_hits(context.horses, context.seat_wind, ruleset.options["horse_dragons"])
    per_payer = points * stake.unit * (1 + (hits or 0))
    liable = liable_seat(ruleset, hand, context)
    kong_money = stake.unit * (stake.kong if ruleset.points == "multiple" else 1)
    kongs = _kong_payments(ruleset, hand, context, kong_money)
    payments = dict.fromkeys(t.SEATS, 0.0)
    for payer, amount in (*_hand_payments(ruleset, context, per_payer, liable).items(), *kongs.items()):
        payments[payer] -= amount
        payments[context.seat_wind] += amount
    for seat in t.SEATS:
        payments[seat] -= stake.fee
    return Settlement({s: tidy(v) for s, v in payments.items()}, tidy(per_payer), hits, liable,
                      {s: tidy(v) for s, v in kongs.items()}, dict.fromkeys(t.SEATS, tidy(float(stake.fee))))


def tidy(value: float) -> float | int:
    """Whole amounts print as integers."""
    return int(value) if float(value).is_integer() else round(value, 6)
