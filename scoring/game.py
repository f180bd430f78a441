"""A table's game (docs/API.md "Games"): its setup and the list of its hands as recorded; everything else, the
dealer, the winds, each hand's payments, the totals and the settlement, is derived by replaying the hands, so
an edited or deleted hand recomputes every hand after it.

A recorded hand is `{"kind": "draw"}` or `{"kind": "win", "discarder": player | None, "wins": [{"winner":
player, "request": score request, "recognition_id"?}]}`, either with the kongs of players other than the winner
(`"kongs": [{"player", "kind": "concealed" | "exposed" | "added", "from"?}]`), and the stable `"id"` the game gave
it (kept as it is); players are indexes 0-3 in `setup.players` order, the first dealer first, then
counter-clockwise. Each win is scored by `scoring.score`
with the game's rule set, options and stake and the winds of its hand. Points are the payments at a stake unit
of 1; money is points x `stake.unit`, less `stake.fee` from every player on each hand that is won. A draw settles
the kongs alone, where the rule set pays them (option `kongs_void_on_draw`: nothing)."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from fanshot.scoring import rules
from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.hand import parse_stake
from fanshot.scoring.rounds import SEATS, Round, next_round
from fanshot.scoring.score import score
from fanshot.scoring.settle import tidy

MAX_NAME = 40
FILLED_BY_GAME = ("seat_wind", "prevalent_wind", "discarder")
MICRO = Decimal("0.000001")  # the scorer's precision (scoring.settle.tidy)


@dataclass(frozen=True)
class Setup:
    ruleset: str
    players: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)
    stake: dict[str, Any] = field(default_factory=dict)  # a score request's context.stake


def check_setup(ruleset: Any, options: Any, players: Any, stake: Any) -> Setup:
    """A game's setup, or a ScoringError naming what is wrong with it."""
    rules.load(ruleset, options)
    names = [name.strip() if isinstance(name, str) else name for name in players] \
        if isinstance(players, list) else None
    if names is None or len(names) != SEATS or any(not isinstance(n, str) or not 0 < len(n) <= MAX_NAME
                                                   for n in names):
        raise ScoringError("bad_request", f"players: four names of 1-{MAX_NAME} characters, the first dealer "
                           f"first, then counter-clockwise; got {players!r}")
    if len(set(names)) != SEATS:
        raise ScoringError("bad_request", f"players: four different names, got {names}")
    for seat, name in enumerate(names):
        if not _is_text(name):
            raise ScoringError("bad_request", f"players[{seat}]: {name!r} is not plain text (a control character or "
                               "half of a character pair); type the name again")
    parse_stake(stake)
    return Setup(ruleset, tuple(names), dict(options or {}), dict(stake))


def _is_text(name: str) -> bool:
    """Printable and encodable: a lone surrogate would be stored, then fail every read and export of the game."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return name.isprintable()


THREE_WINNERS = 3
# A game's kong kinds and the rule set's tables for them (docs/RULES.md): an exposed kong is made from a discard
GAME_KONG_KINDS = {"concealed": "concealed", "exposed": "fed", "added": "added"}
MOST_KONGS = 4  # a player can hold no more


def several_winners_allowed(ruleset: rules.Ruleset) -> bool:
    """一炮多响: by option `multi_win` where the rule set has it, else where the rule set scores it (鸡平胡,
    新章). Otherwise 截胡 (docs/RULES.md, seed 003): only the biggest of several wins on one discard counts."""
    option = ruleset.options.get("multi_win")
    return option if option is not None else "multi_win" in ruleset.scored


def replay(setup: Setup, hands: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The whole game derived from its hands; a ScoringError names the first hand that cannot be scored.
    Sums run in exact decimals, so the totals square to the last digit however many hands are played."""
    ruleset = rules.load(setup.ruleset, copy.deepcopy(setup.options))
    stake = parse_stake(setup.stake)
    unit, fee = _exact(stake.unit), _exact(stake.fee)
    state, played = Round(), []
    points, money, fees = ([Decimal(0)] * SEATS for _ in range(3))
    for n, hand in enumerate(hands, start=1):
        result, winners, won = _replay_hand(setup, ruleset, state, n, hand)
        fee_now = fee if winners else Decimal(0)  # a draw settles its kongs only
        paid = [p * unit - fee_now for p in won]
        result["payments"] = [_number(p) for p in paid]
        if "kong_points" in result:  # the kongs' money apart from the win's, for the sheet
            result["kong_payments"] = [_number(_exact(p) * unit) for p in result["kong_points"]]
        points = [a + b for a, b in zip(points, won, strict=True)]
        money = [a + b for a, b in zip(money, paid, strict=True)]
        fees = [f + fee_now for f in fees]
        played.append(result)
        state = next_round(state, winners, drawn=not winners, rotation=ruleset.rotation)
    return {
        "dealer": state.dealer,
        "prevalent_wind": state.prevalent_wind,
        "players": [{"name": name, "seat_wind": state.seat_wind(p), "total": _number(money[p]),
                     "points": _number(points[p]), "fees": _number(fees[p])} for p, name in enumerate(setup.players)],
        "hands": played,
        "settlement": transfers([m + f for m, f in zip(money, fees, strict=True)]),
    }


def _exact(value: float) -> Decimal:
    return Decimal(str(value))


def _number(value: Decimal) -> float | int:
    return tidy(float(value))


def _replay_hand(setup: Setup, ruleset: rules.Ruleset, state: Round, n: int,
                 hand: dict[str, Any]) -> tuple[dict[str, Any], list[int], list[Decimal]]:
    """The hand's result (winds, wins with their scores, points per player), its counting winners in turn
    order from the discarder, and each player's points."""
    if not isinstance(hand, dict):
        raise _error(n, "bad_request", "a hand is an object {kind, discarder, wins} or {kind: 'draw'}")
    result = {"n": n, **copy.deepcopy(hand), "dealer": state.dealer, "prevalent_wind": state.prevalent_wind,
              "seat_winds": [state.seat_wind(p) for p in range(SEATS)], "points": [0] * SEATS}
    if hand.get("kind") == "draw":
        _only_keys(hand, ("id", "kind", "kongs"), n)
        drawn = not ruleset.options.get("kongs_void_on_draw", False)
        kongs = _kong_points(setup, ruleset, n, hand.get("kongs", []), winners=(), paid=drawn)
        if "kongs" in hand:
            result["kong_points"] = [_number(p) for p in kongs]
        result["points"] = [_number(p) for p in kongs]
        return result, [], kongs
    if hand.get("kind") != "win":
        raise _error(n, "bad_request", f"kind: 'win' or 'draw', got {hand.get('kind')!r}")
    _only_keys(hand, ("id", "kind", "discarder", "wins", "kongs"), n)
    discarder, wins = hand.get("discarder"), hand.get("wins")
    _check_players(n, discarder, wins)
    order = sorted(range(len(wins)), key=lambda i: (wins[i]["winner"] - (discarder or 0)) % SEATS)
    several = len(wins) > 1 and several_winners_allowed(ruleset)
    # 一炮三响 and its 3-fan floor need three winners (「同一张牌点三个炮」, seed 000 and 003); two just both win
    three = several and len(wins) == THREE_WINNERS
    scores = [_score_win(setup, state, n, i, discarder, wins[i], three) for i in range(len(wins))]
    # 截胡: the biggest hand; on equal hands, the first winner counter-clockwise from the discarder
    kept = order if several else [max(order, key=lambda i: (scores[i]["points"], scores[i]["fan_total"],
                                                                -order.index(i)))]
    kongs = _kong_points(setup, ruleset, n, hand.get("kongs", []), winners=[w["winner"] for w in wins], paid=True)
    if "kongs" in hand:
        result["kong_points"] = [_number(p) for p in kongs]
    total = list(kongs)
    for i in kept:
        for seat, amount in scores[i]["payments"].items():
            total[state.player_at(seat)] += _exact(amount)
    result["wins"] = [{**win, "kept": i in kept, **_summary(scores[i])} for i, win in enumerate(result["wins"])]
    result["points"] = [_number(p) for p in total]
    return result, [wins[i]["winner"] for i in kept], total


def _check_players(n: int, discarder: Any, wins: Any) -> None:
    if discarder is not None and (type(discarder) is not int or discarder not in range(SEATS)):
        raise _error(n, "bad_request", f"discarder: a player 0-3 or null (self-draw), got {discarder!r}")
    if not isinstance(wins, list) or not 1 <= len(wins) <= 3 or not all(isinstance(w, dict) for w in wins):
        raise _error(n, "bad_request", "wins: one to three wins, each {winner, request, recognition_id?}")
    winners = [win.get("winner") for win in wins]
    for i, win in enumerate(wins):
        _only_keys(win, ("winner", "request", "recognition_id"), n, f"wins[{i}].")
        if type(win.get("winner")) is not int or win["winner"] not in range(SEATS):
            raise _error(n, "bad_request", f"wins[{i}].winner: a player 0-3, got {win.get('winner')!r}")
    if len(set(winners)) != len(winners):
        raise _error(n, "bad_context", f"wins: each player wins at most once in a hand, got winners {winners}")
    if discarder in winners:
        raise _error(n, "bad_context", f"discarder: player {discarder} cannot win on their own discard")
    if len(wins) > 1 and discarder is None:
        raise _error(n, "bad_context", "wins: several winners only on one discard; a self-draw has one winner")


def _kong_points(setup: Setup, ruleset: rules.Ruleset, n: int, kongs: Any, winners: Sequence[int],
                 paid: bool) -> list[Decimal]:
    """Each player's points from the kongs of players other than the winners, paid apart from the win as the rule
    set's kong table says (docs/RULES.md): `each` other player, or the discarder it was made `from`, pays its
    units; a table that adds kongs to the hand's payment (`payer`, 抢杠's kong stake) has each other player pay
    for a loser's kong. In the `stakes` model a unit is the kong stake. `paid` False: checked, worth nothing."""
    if not isinstance(kongs, list) or not all(isinstance(kong, dict) for kong in kongs):
        raise _error(n, "bad_request", "kongs: a list of {player, kind: 'concealed' | 'exposed' | 'added', from?}")
    if kongs and not ruleset.kongs:
        raise _error(n, "bad_request", f"kongs: {ruleset.name} pays no kong apart from the win; leave kongs out "
                     "(a winner's kongs are melds of its score request)")
    points = [Decimal(0)] * SEATS
    unit = _exact(parse_stake(setup.stake).kong) if ruleset.points == "stakes" else Decimal(1)
    for i, kong in enumerate(kongs):
        player, kind, fed_by = _check_kong(n, i, kong, winners)
        for payer, units in ruleset.kongs.get(GAME_KONG_KINDS[kind], {}).items():
            payers = [fed_by] if payer == "discarder" else [p for p in range(SEATS) if p != player]
            for seat in payers if paid else ():
                points[seat] -= _exact(units) * unit
                points[player] += _exact(units) * unit
    held = [sum(kong["player"] == p for kong in kongs) for p in range(SEATS)]
    if max(held, default=0) > MOST_KONGS:
        raise _error(n, "bad_context", f"kongs: player {held.index(max(held))} holds {max(held)} kongs; "
                     f"at most {MOST_KONGS}")
    return points


def _check_kong(n: int, i: int, kong: dict[str, Any], winners: Sequence[int]) -> tuple[int, str, int | None]:
    where = f"kongs[{i}]"
    _only_keys(kong, ("player", "kind", "from"), n, f"{where}.")
    player, kind, fed_by = kong.get("player"), kong.get("kind"), kong.get("from")
    if type(player) is not int or player not in range(SEATS):
        raise _error(n, "bad_request", f"{where}.player: a player 0-3, got {player!r}")
    if kind not in GAME_KONG_KINDS:
        raise _error(n, "bad_request", f"{where}.kind: one of {list(GAME_KONG_KINDS)}, got {kind!r}")
    if player in winners:
        raise _error(n, "bad_context", f"{where}: player {player} wins this hand; a winner's kongs are melds of "
                     "its score request")
    if kind != "exposed":
        if "from" in kong:
            raise _error(n, "bad_request", f"{where}.from: only an exposed kong is made from a discard; leave it out")
        return player, kind, None
    if type(fed_by) is not int or fed_by not in range(SEATS) or fed_by == player:
        raise _error(n, "bad_request", f"{where}.from: the player 0-3 whose discard made the exposed kong (not "
                     f"player {player}), got {fed_by!r}")
    return player, kind, fed_by


def _score_win(setup: Setup, state: Round, n: int, i: int, discarder: int | None, win: dict[str, Any],
               three_winners: bool) -> dict[str, Any]:
    where = f"wins[{i}].request"
    request = copy.deepcopy(win.get("request"))
    if not isinstance(request, dict):
        raise _error(n, "bad_request", f"{where}: a score request object")
    for key in ("ruleset", "options"):
        if key in request and request[key] != getattr(setup, key):
            raise _error(n, "bad_request", f"{where}.{key}: the game plays {getattr(setup, key)!r}, got "
                         f"{request[key]!r}")
    context = request.get("context", {})
    if not isinstance(context, dict):
        raise _error(n, "bad_request", f"{where}.context: expected an object")
    filled = {"seat_wind": state.seat_wind(win["winner"]), "prevalent_wind": state.prevalent_wind,
              "discarder": None if discarder is None else state.seat_wind(discarder)}
    for key in FILLED_BY_GAME:
        if key in context and context[key] != filled[key]:
            raise _error(n, "bad_context", f"{where}.context.{key}: the game fills it in ({filled[key]}), "
                         f"got {context[key]!r}")
    if "stake" in context and parse_stake(context["stake"]) != parse_stake(setup.stake):
        raise _error(n, "bad_context", f"{where}.context.stake: the game's stake applies, got {context['stake']!r}")
    special = list(context.get("special", []))
    if three_winners and "multi_win" not in special:
        special.append("multi_win")
    request.update(ruleset=setup.ruleset, options=copy.deepcopy(setup.options), context={
        "win": "self_draw" if discarder is None else "discard", **context, **filled, "special": special,
        "stake": {**setup.stake, "unit": 1, "fee": 0}})
    try:
        return score(request)
    except ScoringError as error:
        raise _error(n, error.code, f"wins[{i}] (player {win['winner']}): {error.message}", **error.detail) from None


def _summary(scored: dict[str, Any]) -> dict[str, Any]:
    return {"fans": [{key: item[key] for key in ("id", "zh", "zh_hant", "en", "fan")} for item in scored["fans"]],
            "fan_total": scored["fan_total"], "hand_points": scored["points"]}


def _only_keys(raw: dict[str, Any], allowed: tuple[str, ...], n: int, where: str = "") -> None:
    unknown = raw.keys() - allowed
    if unknown:
        raise _error(n, "bad_request", f"{where}unknown field(s) {sorted(unknown)}; allowed: {list(allowed)}")


def _error(n: int, code: str, message: str, **detail: object) -> ScoringError:
    return ScoringError(code, f"hand {n}: {message}", **detail)


def transfers(balances: Sequence[Decimal]) -> list[dict[str, Any]]:
    """The fewest payments that square everyone: `balances` (summing to zero) -> [{from, to, amount}].

    n people need n - g payments, g the most groups that each sum to zero: found exactly over subsets (fine
    for a table of four), then each group squared greedily, largest debt to largest credit. Balances count in
    millionths, the scorer's precision; a rounding remainder below that is left unpaid."""
    exact = [int((b / MICRO).to_integral_value()) for b in balances]
    if abs(sum(exact)) > len(exact):
        raise ValueError(f"balances {list(balances)} do not sum to zero")
    exact[max(range(len(exact)), key=exact.__getitem__)] -= sum(exact)
    owing = [p for p, b in enumerate(exact) if b]
    payments = []
    for group in _zero_sum_groups(owing, exact):
        left = {p: exact[p] for p in group}
        while any(left.values()):
            debtor = min(left, key=lambda p: (left[p], p))
            creditor = max(left, key=lambda p: (left[p], -p))
            amount = min(-left[debtor], left[creditor])
            payments.append({"from": debtor, "to": creditor, "amount": _number(amount * MICRO)})
            left[debtor] += amount
            left[creditor] -= amount
    return payments


def _zero_sum_groups(people: list[int], balances: list[int]) -> list[list[int]]:
    """The largest number of disjoint zero-sum groups covering `people` (dynamic programming over subsets)."""
    size = len(people)
    sums = [sum(balances[people[b]] for b in range(size) if mask >> b & 1) for mask in range(1 << size)]
    best = [0] * (1 << size)
    for mask in range(1, 1 << size):
        best[mask] = max(best[mask & ~(1 << b)] for b in range(size) if mask >> b & 1) + (sums[mask] == 0)
    # walk back: removing people one at a time, a group closes wherever the remaining set sums to zero
    order, mask = [], (1 << size) - 1
    while mask:
        b = next(b for b in range(size) if mask >> b & 1 and
                 best[mask & ~(1 << b)] + (sums[mask] == 0) == best[mask])
        order.append(b)
        mask &= ~(1 << b)
    groups, current, mask = [], [], (1 << size) - 1
    for b in order:
        current.append(people[b])
        mask &= ~(1 << b)
        if sums[mask] == 0:
            groups.append(current)
            current = []
    return groups



def scoresheet(setup: Setup, replayed: dict[str, Any]) -> list[list[Any]]:
    """The game as rows for a spreadsheet: a header, one row per hand (money per player), a totals row."""
    names = list(setup.players)
    rows: list[list[Any]] = [["hand", "prevalent wind", "dealer", "result", *names]]
    for hand in replayed["hands"]:
        rows.append([hand["n"], t.names(hand["prevalent_wind"])[1], names[hand["dealer"]],
                     _describe(hand, names), *hand["payments"]])
    rows.append(["total", "", "", "", *(player["total"] for player in replayed["players"])])
    return rows


def _describe(hand: dict[str, Any], names: list[str]) -> str:
    if hand["kind"] == "draw":
        return "draw"
    how = "self-draw" if hand["discarder"] is None else f"on {names[hand['discarder']]}'s discard"
    wins = [f"{names[win['winner']]} {win['fan_total']} fan" + ("" if win["kept"] else " (intercepted: 截胡)")
            for win in hand["wins"]]
    return f"{', '.join(wins)} {how}"
