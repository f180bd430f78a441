"""`fanshot score`, `fanshot waits` and `fanshot rulesets`: thin shells over scoring.score, scoring.analysis and
the rule-set loader."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fanshot.scoring import ruleset_details, ruleset_summaries, score
from fanshot.scoring.analysis import analyse
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.hand import HAND_HELP, SPECIAL_WINS, hand_from_notation
from fanshot.scoring.rules import DEFAULT_RULESET

STAKE_NUMBERS = ("flower", "kong", "chicken")  # qianggang's "1 2 3" (seed 003), in the seed's order

def request_from_args(args: argparse.Namespace) -> dict[str, Any]:
    hand = hand_from_notation(args.hand)
    for key in ("flowers", "winning_tile"):
        if getattr(args, key):
            hand[key] = getattr(args, key)
    context: dict[str, Any] = {"win": args.win.replace("-", "_"), "seat_wind": args.seat,
                               "prevalent_wind": args.prevalent, "special": args.special or []}
    for key in ("discarder", "liable", "kong_fed_by", "ghosts", "horses"):
        if getattr(args, key) is not None:
            context[key] = getattr(args, key)
    context["stake"] = {"unit": args.unit, "fee": args.fee}
    if args.stake:
        context["stake"].update(zip(STAKE_NUMBERS, args.stake, strict=True))
    return {"ruleset": args.ruleset, "options": _options(args.option or []), "hand": hand, "context": context}


def _options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep:
            raise ScoringError("bad_option", f"--option {pair!r}: expected key=value")
        try:
            value = json.loads(raw)
        except json.JSONDecodeError:
            value = raw  # a bare word such as ghosts=white
        target = options
        *parents, leaf = key.split(".")  # fans.all_chows=2 sets options["fans"]["all_chows"]
        for parent in parents:
            target = target.setdefault(parent, {})
        target[leaf] = value
    return options


def render_table(response: dict[str, Any]) -> str:
    names = response["ruleset_names"]
    lines = [f"{response['ruleset']} {names['zh']} — {names['en']}", ""]
    width = max((len(item["en"]) for item in response["fans"]), default=0)
    for item in response["fans"]:
        lines.append(f"  {item['zh']:<6}\u3000{item['en']:<{width}}  {item['fan']:>3}  ({item['kind']})")
    flags = [flag for flag in ("capped", "limit") if response[flag]]
    lines += ["", f"  fan total {response['fan_total']}" + (f" ({', '.join(flags)})" if flags else ""),
              f"  points    {response['points']} per paying player"]
    stake = response["stake"]
    if "chicken" in stake:
        lines.append("  stake     " + " / ".join(f"{key} {stake[key]:,}" for key in STAKE_NUMBERS))
    parts = [f"{name} {amount:,}" for name, amount in response["per_payer_parts"].items() if amount]
    if len(parts) > 1 or response["per_payer"] != response["points"]:  # money that differs from the points
        lines.append(f"  per payer {response['per_payer']:,} = " + " + ".join(parts))
    lines.append("  payments  " + "  ".join(f"{seat} {amount:+,}" for seat, amount in response["payments"].items()))
    if response["liable"]:
        lines.append(f"  liable    {response['liable']} pays for all three (包)")
    lines += [f"  warning   {w}" for w in response["warnings"]]
    return "\n".join(lines)


def _rate(value: dict[str, Any] | None) -> str:
    if value is None:
        return "—"
    return f"{value['fan_total']} fan, {value['points']} " + ("pt" if value["points"] == 1 else "pts")


def _tiles_left(items: list[dict[str, Any]]) -> str:
    return "  ".join(f"{item['tile']}×{item['remaining']}" for item in items)


def _distance(shanten: int) -> str:
    return {-1: "complete", 0: "ready"}.get(shanten, f"{shanten} from ready")


def render_waits(response: dict[str, Any]) -> str:
    """`fanshot waits` as text: the waits with their value, or the useful tiles, or every discard."""
    lines = [f"{response['ruleset']}, {response['tiles']} tiles: {_distance(response['shanten'])} "
             f"(shanten {response['shanten']})"]
    if "waits" in response:
        lines += ["", "  wait  left  self-draw            discard"]
        lines += [f"  {w['tile']:<4}  {w['remaining']:>4}  {_rate(w['self_draw']):<19}  {_rate(w['discard'])}"
                  for w in response["waits"]]
    if "useful" in response:
        lines += ["", "  useful (left)  " + _tiles_left(response["useful"])]
    for entry in response.get("discards", ()):
        ready = "waits" in entry
        lines.append(f"  discard {entry['discard']}: {_distance(entry['shanten'])}, "
                     + ("waits " if ready else "useful ") + _tiles_left(entry["waits" if ready else "useful"]))
        lines += [f"      {w['tile']}: self-draw {_rate(w['self_draw'])}; discard {_rate(w['discard'])}"
                  for w in entry.get("waits", ())]
    return "\n".join(lines)


def _run(args: argparse.Namespace, compute: Callable[[Any], dict[str, Any]],
         render: Callable[[dict[str, Any]], str]) -> int:
    try:
        if args.json:
            request = _read_json(args.hand)
        else:
            if not args.hand:
                raise ScoringError("bad_request", f"give a hand, e.g. fanshot {args.command} "
                                   "\"123m456p789s11z [555s]\"; " + HAND_HELP)
            request = request_from_args(args)
        response = compute(request)
    except ScoringError as error:
        if args.json:
            print(json.dumps({"errors": [error.as_dict()]}, ensure_ascii=False))
        else:
            print(f"error: {error}", file=sys.stderr)
        return 2
    print(json.dumps(response, ensure_ascii=False, indent=2) if args.json else render(response))
    return 0


def run_score(args: argparse.Namespace) -> int:
    return _run(args, score, render_table)


def run_waits(args: argparse.Namespace) -> int:
    return _run(args, analyse, render_waits)


def _read_json(path: str | None) -> Any:
    try:
        text = sys.stdin.read() if path in (None, "-") else Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ScoringError("bad_request", f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise ScoringError("bad_request", f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ScoringError("bad_request", f"not valid JSON: {error.msg} at line {error.lineno} "
                           f"column {error.colno}") from None
    except RecursionError:
        raise ScoringError("bad_request", "the JSON is nested too deeply to be a score request") from None


def run_rulesets(args: argparse.Namespace) -> int:
    if args.name:
        try:
            details = ruleset_details(args.name)
        except ScoringError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        print(json.dumps(details, ensure_ascii=False, indent=2))
        return 0
    summaries = ruleset_summaries()
    if args.json:
        print(json.dumps(summaries, ensure_ascii=False, indent=2))
        return 0
    for summary in summaries:
        print(f"{summary['name']:<10} {summary['zh']}  {summary['en']}")
        print("    " + ", ".join(f"{key}={json.dumps(value)}" for key, value in summary["options"].items()))
    return 0


def _hand_arguments(parser: argparse.ArgumentParser) -> None:
    """The hand and win context, as `fanshot score` and `fanshot waits` both take them."""
    parser.add_argument("hand", nargs="?", help="with --json: a request file (default stdin); else " + HAND_HELP)
    parser.add_argument("--json", action="store_true", help="read a JSON request, print the JSON response")
    parser.add_argument("--ruleset", default=DEFAULT_RULESET)
    parser.add_argument("--option", action="append", metavar="KEY=VALUE",
                        help="rule-set option override, repeatable (fans.ID=N sets a pattern's value)")
    parser.add_argument("--win", choices=("self-draw", "discard"), default="self-draw")
    parser.add_argument("--seat", default="1z", help="winner's seat wind (1z = dealer)")
    parser.add_argument("--prevalent", default="1z", help="prevalent (round) wind")
    parser.add_argument("--discarder", help="seat of the discarder, for a discard win")
    parser.add_argument("--special", action="append", choices=SPECIAL_WINS, help="special win, repeatable")
    parser.add_argument("--liable", help="seat liable under a 包 rule")
    parser.add_argument("--kong-fed-by", help="discarder of the kong before a kong-replacement win")
    parser.add_argument("--flowers", help="flowers, e.g. 15f")
    parser.add_argument("--winning-tile")
    parser.add_argument("--ghosts", help="ghost tile(s), tuidaohu")
    parser.add_argument("--horses", help="horse tiles drawn, e.g. 15m2z")
    parser.add_argument("--unit", type=float, default=1, help="stake amount per point")
    parser.add_argument("--fee", type=float, default=0, help="fee charged to every seat")
    parser.add_argument("--stake", type=float, nargs=3, metavar=("FLOWER", "KONG", "CHICKEN"),
                        help="qianggang's three stake numbers, e.g. --stake 1 2 3")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("score", help="score a winning hand",
                                   description="Score a hand: --json reads a score request (docs/API.md) from FILE "
                                   "or stdin; otherwise give the hand in notation with flags.")
    _hand_arguments(parser)
    parser.set_defaults(run=run_score)

    waits = subparsers.add_parser("waits", help="what a hand waits on, and what each wait is worth",
                                  description="Analyse a hand of 13 tiles (its shanten, its waits with their fan "
                                  "and points by self-draw and by discard, or the tiles that help) or of 14 tiles "
                                  "without a winning tile (every discard, best first). --json reads an analyse "
                                  "request (a score request, docs/API.md) from FILE or stdin.")
    _hand_arguments(waits)
    waits.set_defaults(run=run_waits)

    listing = subparsers.add_parser("rulesets", help="list rule sets and their options")
    listing.add_argument("name", nargs="?", help="show everything one rule set scores")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(run=run_rulesets)
