"""Who pays whom: self-draw and discard shares (全銃 / 半銃 in the hk model), 包 liability, horses, kong payments,
stake unit and fees."""

from __future__ import annotations

from dataclasses import dataclass, field

from fanshot.scoring import tiles as t
from fanshot.scoring.hand import Hand, Meld, WinContext
from fanshot.scoring.rules import Ruleset

# A horse names a seat counted from the dealer (seed 000, verbatim: 庄家 1、5、9、东风; 下家 2、6、南风、红中;
# 对家 3、7、西风、发财; 上家 4、8、北风、白板). Option horse_dragons "red_dealer" is the house reading that counts 中
# with 1 5 9 (發 next, 白 opposite).
WIND_HORSE_OFFSETS = {"1z": 0, "2z": 1, "3z": 2, "4z": 3}
DRAGON_HORSE_OFFSETS = {"seed": {"7z": 1, "6z": 2, "5z": 3}, "red_dealer": {"7z": 0, "6z": 1, "5z": 2}}


@dataclass
class Settlement:
    payments: dict[str, float]
    per_payer: float  # what each paying player owes the winner, in money: the sum of `parts`
    parts: dict[str, float]  # per_payer by source: hand, horses, flowers, kongs
    horse_hits: int | None
    liable: str | None
    kong_payments: dict[str, float] = field(default_factory=dict)
    fees: dict[str, float] = field(default_factory=dict)


def horse_offset(code: str, dragons: str = "seed") -> int:
    if code in WIND_HORSE_OFFSETS:
        return WIND_HORSE_OFFSETS[code]
    if t.is_honour(code):
        return DRAGON_HORSE_OFFSETS[dragons][code]
    return (t.rank(code) - 1) % 4


def horse_hits(horses: tuple[str, ...], winner: str, dragons: str = "seed") -> int:
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
    options = ruleset.options
    if "robbing_kong" in context.special and options.get("robbing_kong_pays", "self_draw") == "self_draw":
        return context.discarder  # the player whose kong was robbed
    replacement = not context.special.isdisjoint(("kong_replacement", "double_kong_replacement"))
    if replacement and options.get("liability_kong_replacement", True):
        # 杠上开花包杠: the discarder of the kong just made (the last kong listed), when it was a 点杠
        last_kong = [m for m in hand.melds if m.kind == "kong"][-1]
        feeder = context.kong_fed_by or (None if last_kong.concealed or last_kong.added else last_kong.fed_by)
        if feeder:
            return feeder
    if context.win != "self_draw":
        return None
    exposed = hand.exposed_melds
    if len(exposed) < 3:  # no 包 without three exposed melds
        return None
    # four exposed wind melds are 大四喜, three exposed dragon melds 大三元, whatever else the hand scores
    for honours, complete in ((t.WINDS, 4), (t.DRAGONS, 3)):
        shown = [m for m in exposed if m.first in honours]
        if options["liability_big_hands"] and len(shown) == complete:
            return _last_exposed_feeder(hand.melds, context.seat_wind, set(honours))
    fourth = len(exposed) == 4
    if fourth and options["liability_twelve_tiles"]:
        return _last_exposed_feeder(hand.melds, context.seat_wind)  # 包先不包后: the feeder of the fourth meld
    if fourth and options.get("liability_nine_tiles_flush", False) and _full_flush(hand):
        return _last_exposed_feeder(hand.melds, context.seat_wind)  # 九张落地: three shown, the fourth fed
    return None


def _full_flush(hand: Hand) -> bool:
    suits = {code[-1] for code in hand.all_tiles()}
    return len(suits) == 1 and "z" not in suits


# Shares of a discard win in the hk money model (docs/RULES.md rule set 5): (the discarder, each other loser)
HK_DISCARD_SHARES = {"full": (2, 0), "half": (1, 0.5)}  # 全銃, 半銃
LIABLE_SHARES = 3  # 包: the liable player pays the whole self-draw


def _discard_shares(ruleset: Ruleset, context: WinContext) -> tuple[float, float]:
    """What the discarder and each other loser pay, in shares of the hand, on a discard win."""
    options = ruleset.options
    if ruleset.points == "hk":
        return HK_DISCARD_SHARES[options["discard_payment"]]
    if options["discard_pays_all"] and "multi_win" not in context.special:
        return LIABLE_SHARES, 0
    return 1, 0


def _hand_payments(ruleset: Ruleset, context: WinContext, amount: float, liable: str | None) -> dict[str, float]:
    winner = context.seat_wind
    if liable:
        return {liable: amount * LIABLE_SHARES}
    if context.win == "self_draw":
        return dict.fromkeys(others(winner), amount)
    discarder, other = _discard_shares(ruleset, context)
    shares = {seat: amount * other for seat in others(winner) if seat != context.discarder} if other else {}
    return {context.discarder: amount * discarder, **shares}


def _kong_kind(meld: Meld) -> str:
    return "concealed" if meld.concealed else "added" if meld.added else "fed"


def _kong_payments(ruleset: Ruleset, hand: Hand, context: WinContext, money: float) -> dict[str, float]:
    """Kongs paid apart from the hand (`each` other player, the `discarder`): seat -> kong units x money."""
    owed: dict[str, float] = {}
    for meld in hand.melds:
        if meld.kind != "kong":
            continue
        for payer, units in ruleset.kongs.get(_kong_kind(meld), {}).items():
            seats = others(context.seat_wind) if payer == "each" else [meld.fed_by] if payer == "discarder" else []
            for seat in seats:
                owed[seat] = owed.get(seat, 0) + units * money
    return owed


def _kong_units_per_payer(ruleset: Ruleset, hand: Hand) -> float:
    """Kong units that ride on the hand (`payer`): whoever pays the hand pays them too."""
    return sum(ruleset.kongs.get(_kong_kind(m), {}).get("payer", 0) for m in hand.melds if m.kind == "kong")


def _kong_money(ruleset: Ruleset, context: WinContext) -> float:
    """Money per kong unit: the kong stake in the `stakes` model, else the stake unit."""
    return context.stake.unit * (context.stake.kong if ruleset.points == "stakes" else 1)


def per_payer_parts(ruleset: Ruleset, hand: Hand, context: WinContext, points: float,
                    hits: int | None) -> dict[str, float]:
    """What each payer of the hand owes, by source: the hand (points x unit, x the chicken stake in the `stakes`
    model), once more per horse on the winner, the flower stake per flower, the kong units that ride on the hand
    (docs/RULES.md rule set 4). The chicken stake is 1 and the flower stake 0 outside the `stakes` model (validate)."""
    stake = context.stake
    hand_part = points * stake.unit * stake.chicken
    return {
        "hand": hand_part,
        "horses": hand_part * (hits or 0),
        "flowers": stake.flower * stake.unit * len(hand.flowers),
        "kongs": _kong_money(ruleset, context) * _kong_units_per_payer(ruleset, hand),
    }


def settle(ruleset: Ruleset, hand: Hand, context: WinContext, points: float) -> Settlement:
    stake, winner = context.stake, context.seat_wind
    hits = None if context.horses is None else horse_hits(context.horses, winner, ruleset.options["horse_dragons"])
    parts = per_payer_parts(ruleset, hand, context, points, hits)
    per_payer = sum(parts.values())
    liable = liable_seat(ruleset, hand, context)
    kongs = _kong_payments(ruleset, hand, context, _kong_money(ruleset, context))
    payments = dict.fromkeys(t.SEATS, 0.0)
    for payer, amount in (*_hand_payments(ruleset, context, per_payer, liable).items(), *kongs.items()):
        payments[payer] -= amount
        payments[winner] += amount
    for seat in t.SEATS:
        payments[seat] -= stake.fee
    return Settlement(tidy_amounts(payments), tidy(per_payer), tidy_amounts(parts), hits, liable,
                      tidy_amounts(kongs), dict.fromkeys(t.SEATS, tidy(float(stake.fee))))


def tidy(value: float) -> float | int:
    """Whole amounts print as integers."""
    return int(value) if float(value).is_integer() else round(value, 6)


def tidy_amounts(amounts: dict[str, float]) -> dict[str, float | int]:
    """`tidy` of every amount, in one loop rather than a call per amount (a response holds a dozen)."""
    return {key: int(value) if float(value).is_integer() else round(value, 6) for key, value in amounts.items()}
