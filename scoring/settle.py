"""Who pays whom: self-draw and discard shares, 包 liability, horses, kong payments, stake unit and fees."""

from __future__ import annotations

from dataclasses import dataclass, field

from scoring import tiles as t
from scoring.hand import Hand, Meld, WinContext
from scoring.rules import Ruleset

# A horse names a seat counted from the dealer (seed): 1 5 9 东 中 -> dealer, 2 6 南 發 -> next,
# 3 7 西 白 -> opposite, 4 8 北 -> previous.
HONOUR_HORSE_OFFSETS = {"1z": 0, "2z": 1, "3z": 2, "4z": 3, "7z": 0, "6z": 1, "5z": 2}


@dataclass
class Settlement:
    payments: dict[str, float]
    per_payer: float  # the hand's amount per paying player, horses included, in stake money
    horse_hits: int | None
    liable: str | None
    kong_payments: dict[str, float] = field(default_factory=dict)
    fees: dict[str, float] = field(default_factory=dict)


def horse_offset(code: str) -> int:
    return HONOUR_HORSE_OFFSETS[code] if t.is_honour(code) else (t.rank(code) - 1) % 4


def horse_hits(horses: tuple[str, ...], winner: str) -> int:
    """Horses that name the winner's seat (offset from the dealer, who sits at 1z)."""
    return sum(1 for code in horses if horse_offset(code) == t.SEATS.index(winner))


def others(seat: str) -> list[str]:
    return [s for s in t.SEATS if s != seat]


def _last_exposed_feeder(melds: tuple[Meld, ...], indices: set[str] | None = None) -> str | None:
    """fed_by of the last exposed meld (of the given tiles), the one that completed the liability."""
    exposed = [m for m in melds if not m.concealed and (indices is None or m.first in indices)]
    return exposed[-1].fed_by if exposed else None


def liable_seat(ruleset: Ruleset, hand: Hand, context: WinContext) -> str | None:
    """The seat that pays for all three under a 包 rule, if any (an explicit `liable` has been validated)."""
    if context.liable:
        return context.liable
    if "robbing_kong" in context.special:
        return context.discarder  # the player whose kong was robbed
    if "kong_replacement" in context.special and context.kong_fed_by:
        return context.kong_fed_by  # 杠上开花包杠
    if context.win != "self_draw":
        return None
    options = ruleset.options
    # four exposed wind melds are 大四喜, three exposed dragon melds 大三元, whatever else the hand scores
    for honours, complete in ((t.WINDS, 4), (t.DRAGONS, 3)):
        shown = [m for m in hand.exposed_melds if m.first in honours]
        if options["liability_big_hands"] and len(shown) == complete:
            return _last_exposed_feeder(hand.melds, set(honours))
    if options["liability_twelve_tiles"] and len(hand.exposed_melds) == 4:
        return _last_exposed_feeder(hand.melds)  # 包先不包后: the feeder of the fourth meld
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
    hits = horse_hits(context.horses, context.seat_wind) if context.horses is not None else None
    per_payer = points * stake.unit * (1 + (hits or 0))
    liable = liable_seat(ruleset, hand, context)
    kong_money = stake.unit * (stake.kong if ruleset.points == "multiple" else 1)
    kongs = _kong_payments(ruleset, hand, context, kong_money)
    payments = dict.fromkeys(t.SEATS, 0.0)
    for payer, amount in (*_hand_payments(ruleset, context, per_payer, liable).items(), *kongs.items()):
        payments[payer] -= amount
        payments[context.seat_wind] += amount
    fees = dict.fromkeys(t.SEATS, float(stake.fee))
    for seat in t.SEATS:
        payments[seat] -= stake.fee
    return Settlement({s: tidy(v) for s, v in payments.items()}, tidy(per_payer), hits, liable,
                      {s: tidy(v) for s, v in kongs.items()}, {s: tidy(v) for s, v in fees.items()})


def tidy(value: float) -> float | int:
    """Whole amounts print as integers."""
    return int(value) if float(value).is_integer() else round(value, 6)
