"""Checks that need the hand, the context and the rule set together: each refusal is a ScoringError."""

from __future__ import annotations

from collections import Counter

from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.hand import NO_STAKE, Hand, WinContext
from fanshot.scoring.rules import GHOST_MODES, Ruleset

HAND_SIZE = 14  # tiles of a winning hand, counting each kong as three


def ghost_tiles(ruleset: Ruleset, context: WinContext) -> tuple[str, ...]:
    """The ghost tiles in force (docs/RULES.md rule set 2): the tiles the context names, whatever the mode (naming
    them is enough), else 白 in the `white` mode. A named set that contradicts the mode is an error."""
    mode = ruleset.options["ghosts"]
    if mode == "none" and not context.ghosts:  # most hands
        return ()
    if not ruleset.ghosts_in_play:
        raise ScoringError("bad_context", f"context.ghosts: rule set {ruleset.name} plays without ghost tiles (鬼牌); "
                           "remove context.ghosts, or set options.ghosts to a mode (white, flip, flip2) for a house "
                           "that plays them", field="context.ghosts", reason="no_ghosts")
    named = tuple(dict.fromkeys(context.ghosts))  # a tile named twice is one ghost
    if mode == "white":
        if named not in ((), ("5z",)):
            raise ScoringError("bad_context", "context.ghosts: in 'white' mode the ghost is 5z (白板)",
                               field="context.ghosts", reason="white")
        return ("5z",)
    allowed = range(max(GHOST_MODES.values()) + 1) if mode == "none" else (GHOST_MODES[mode],)
    if len(named) not in allowed:
        wanted = f"at most {allowed[-1]}" if mode == "none" else f"{allowed[0]}"
        raise ScoringError("bad_context", f"context.ghosts: '{mode}' mode names {wanted} distinct ghost tile(s), "
                           f"got {t.to_string(named) or 'none'}", field="context.ghosts", reason="count",
                           expected=wanted, given=len(named))
    return named


def hand_size(hand: Hand) -> int:
    """Tiles in the hand, each kong counted as three."""
    return len(hand.concealed) + 3 * len(hand.melds)


def check_tiles(ruleset: Ruleset, hand: Hand, context: WinContext, *, instant: bool = False) -> None:
    """The hand's tile count and copies; an `instant` win (花胡) may stand on the 13 tiles held before a draw."""
    size = hand_size(hand)
    if size > HAND_SIZE:
        raise ScoringError("too_many_tiles", f"大相公: {len(hand.concealed)} standing tiles and {len(hand.melds)} "
                           f"melds make {size} tiles; a winning hand has {HAND_SIZE} (each kong counted as 3)",
                           expected=HAND_SIZE, given=size)
    if size < HAND_SIZE - instant:
        raise ScoringError("too_few_tiles", f"小相公: {len(hand.concealed)} standing tiles and {len(hand.melds)} "
                           f"melds make {size} tiles; a winning hand has {HAND_SIZE} (each kong counted as 3)",
                           expected=HAND_SIZE, given=size)
    check_copies(ruleset, hand, context)


def check_copies(ruleset: Ruleset, hand: Hand, context: WinContext) -> None:
    """No fifth copy of a tile, no repeated or disallowed flower, the winning tile among the standing ones."""
    seen = hand.all_tiles() + list(context.horses or ())
    if max(t.counts(seen)) > 4:
        raise ScoringError("too_many_copies", f"more than four copies of {', '.join(t.over_four(seen))} across the "
                           "hand" + (" and horses" if context.horses else ""), tiles=t.over_four(seen))
    if len(set(hand.flowers)) < len(hand.flowers):
        doubled = [code for code, n in Counter(hand.flowers).items() if n > 1]
        raise ScoringError("too_many_copies", f"hand.flowers: each flower exists once; {', '.join(doubled)} repeats",
                           field="hand.flowers", tiles=doubled)
    if hand.flowers and not ruleset.options["flowers"]:
        raise ScoringError("not_allowed", f"hand.flowers: rule set {ruleset.name} plays without flowers",
                           field="hand.flowers")
    if hand.winning_tile and hand.winning_tile not in hand.concealed:
        raise ScoringError("winning_tile_missing", f"hand.winning_tile {hand.winning_tile} is not among the "
                           "standing tiles (hand.concealed must include the winning tile)", field="hand.winning_tile")


def check_melds(ruleset: Ruleset, hand: Hand, context: WinContext) -> None:
    if not hand.melds:
        return
    winner = context.seat_wind
    previous = t.SEATS[(t.SEATS.index(winner) - 1) % 4]
    for i, meld in enumerate(hand.melds):
        where = f"hand.melds[{i}]"
        if meld.kind == "chow" and not ruleset.options["chow"]:
            raise ScoringError("not_allowed", f"{where}: rule set {ruleset.name} allows no chow (pung and kong only)",
                               field=where, reason="chow")
        if meld.fed_by == winner:
            raise ScoringError("bad_meld", f"{where}.fed_by: {winner} is the winner's own seat",
                               field=f"{where}.fed_by", reason="own_seat")
        paid_by_feeder = "discarder" in ruleset.kongs.get("fed", {})
        if paid_by_feeder and meld.kind == "kong" and not (meld.concealed or meld.added) and meld.fed_by is None:
            raise ScoringError("bad_meld", f"{where}.fed_by: under {ruleset.name} the discarder pays for an exposed "
                               "kong (点杠); name their seat", field=f"{where}.fed_by",
                               reason="required")
        if meld.kind == "chow" and meld.fed_by not in (None, previous):
            raise ScoringError("bad_meld", f"{where}.fed_by: a chow is claimed only from the previous player "
                               f"({previous}), not {meld.fed_by}", field=f"{where}.fed_by",
                               reason="chow_from", seat=previous)


def check_context(ruleset: Ruleset, hand: Hand, context: WinContext) -> None:
    winner, special = context.seat_wind, context.special
    robbing = "robbing_kong" in special
    if context.win == "discard":
        if context.discarder is None:
            raise ScoringError("bad_context", "context.discarder: a discard win names the discarder's seat",
                               field="context.discarder", reason="required")
        if context.discarder == winner:
            raise ScoringError("bad_context", f"context.discarder: {winner} is the winner's own seat",
                               field="context.discarder", reason="own_seat")
        if not ruleset.options["discard_win"] and not robbing:
            raise ScoringError("not_allowed", f"context.win: rule set {ruleset.name} allows self-draw wins only "
                               "(robbing a kong counts as self-draw)", field="context.win", reason="discard")
    elif context.discarder is not None:
        raise ScoringError("bad_context", "context.discarder: a self-draw has no discarder", field="context.discarder",
                           reason="self_draw")
    if robbing and context.win != "discard":
        raise ScoringError("bad_context", "抢杠 robbing_kong: the tile comes from another player's added kong; "
                           "set win 'discard' with that player as discarder, not a self-draw", field="context.special",
                           reason="needs_win", special="robbing_kong", win="discard")
    _check_kong_replacement(hand, context)
    for name, wins in (("last_tile", "self_draw"), ("multi_win", "discard"), ("last_discard", "discard")):
        if name in special and context.win != wins:
            raise ScoringError("bad_context", f"{name}: only with win '{wins}'",
                               field="context.special", reason="needs_win", special=name, win=wins)
    if "multi_win" in special and not ruleset.options["multi_win"]:
        raise ScoringError("not_allowed", f"multi_win 一炮多响: rule set {ruleset.name} plays 截胡, only the biggest "
                           "hand wins on one discard (set options.multi_win to allow several winners)",
                           field="context.special", reason="multi_win")
    _check_first_turn_wins(hand, context)
    if context.liable == winner:
        raise ScoringError("bad_context", "context.liable: the winner cannot be liable", field="context.liable",
                           reason="own_seat")
    if context.liable and robbing and context.liable != context.discarder:
        raise ScoringError("bad_context", "context.liable: under 抢杠 the robbed player (the discarder) is liable",
                           field="context.liable", reason="robbed")
    stake = context.stake  # NO_STAKE unless the request names one
    unused = [] if stake is NO_STAKE else [key for key in ("flower", "kong", "chicken")
                                           if getattr(stake, key) != getattr(NO_STAKE, key)]
    if unused and ruleset.points != "stakes":
        raise ScoringError("not_allowed", f"context.stake.{unused[0]}: rule set {ruleset.name} scores in points; "
                           "the flower/kong/chicken stake numbers belong to qianggang",
                           field=f"context.stake.{unused[0]}")
    if context.horses is not None and not ruleset.options["horses"]:
        raise ScoringError("not_allowed", f"context.horses: rule set {ruleset.name} plays without horses",
                           field="context.horses")


KONG_REPLACEMENTS = {"kong_replacement": ("杠上开花", 1), "double_kong_replacement": ("杠上杠", 2)}  # kongs needed


def _check_kong_replacement(hand: Hand, context: WinContext) -> None:
    replacements = [name for name in KONG_REPLACEMENTS if name in context.special]
    if context.kong_fed_by is None and not replacements:
        return
    kongs = [m for m in hand.melds if m.kind == "kong"]
    for name in replacements:
        zh, needed = KONG_REPLACEMENTS[name]
        if len(kongs) < needed:
            raise ScoringError("bad_context", f"{zh} {name}: the hand needs {needed} kong(s), it has {len(kongs)}",
                               field="context.special", reason="no_kong", special=name)
        if context.win != "self_draw":
            raise ScoringError("bad_context", f"{zh} {name}: the replacement tile is self-drawn",
                               field="context.special", reason="needs_win", special=name, win="self_draw")
    if context.kong_fed_by is None:
        return
    if not replacements:
        raise ScoringError("bad_context", "context.kong_fed_by: only for a kong_replacement win",
                           field="context.kong_fed_by", reason="no_replacement")
    fed = [m for m in kongs if not m.concealed and not m.added]
    if not fed or all(m.fed_by not in (None, context.kong_fed_by) for m in fed):
        raise ScoringError("bad_context", f"context.kong_fed_by: no exposed kong claimed from "
                           f"{context.kong_fed_by}'s discard (点杠) in the melds",
                           field="context.kong_fed_by", reason="no_fed_kong")
    if context.kong_fed_by == context.seat_wind:
        raise ScoringError("bad_context", "context.kong_fed_by: the winner's own seat", field="context.kong_fed_by",
                           reason="own_seat")


def _check_first_turn_wins(hand: Hand, context: WinContext) -> None:
    if not context.special:
        return
    rules = {
        "heavenly": (context.is_dealer, "self_draw", "天和 heavenly: only the dealer (1z), by self-draw"),
        "earthly": (not context.is_dealer, "self_draw", "地和 earthly: only a non-dealer, by self-draw"),
        "human": (not context.is_dealer and context.discarder in (None, "1z"), "discard",
                  "人和 human: only a non-dealer, on the dealer's (1z) discard"),
    }
    for name, (seat_ok, win, message) in rules.items():
        if name not in context.special:
            continue
        if not seat_ok or context.win != win:
            raise ScoringError("bad_context", message, field="context.special", reason=name, special=name)
        if hand.melds:
            raise ScoringError("bad_context", f"{name}: a first-turn win has no melds",
                               field="context.special", reason="no_melds", special=name)


def check_draft(hand: Hand) -> None:
    """A hand being put together (a confirmation's draft): it may lack tiles and its winning tile, never hold more
    than a winning hand does, a fifth copy of a tile, or a flower twice."""
    size = len(hand.concealed) + 3 * len(hand.melds)
    if size > HAND_SIZE:
        raise ScoringError("too_many_tiles", f"{len(hand.concealed)} standing tiles and {len(hand.melds)} melds "
                           f"make {size} tiles; a hand holds at most {HAND_SIZE} (each kong counted as 3)")
    if over := t.over_four(hand.all_tiles()):
        raise ScoringError("too_many_copies", f"more than four copies of {', '.join(over)} in the hand")
    if len(set(hand.flowers)) < len(hand.flowers):
        raise ScoringError("too_many_copies", "hand.flowers: each flower exists once")
    if hand.winning_tile and hand.winning_tile not in hand.concealed:
        raise ScoringError("winning_tile_missing", f"hand.winning_tile {hand.winning_tile} is not among the "
                           "standing tiles (hand.concealed must include the winning tile)")
