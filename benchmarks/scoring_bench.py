"""Scoring throughput: Fanshot's full `score()` over a seeded corpus of random winning hands, and the `mahjong`
library's HandCalculator on the same standard hands, in one process.

    .venv/bin/python benchmarks/scoring_bench.py [--n 10000] [--seed 1] [--runs 10] [--clock cpu|wall] [--json]
    .venv/bin/python benchmarks/scoring_bench.py --parts [--n 3000]     # where each side's time goes

The corpus (datasets.synth.hands.corpus) rotates the four rule sets and mixes melds, honours and special hands.
The standard hands are its jipinghu hands of 4 sets + a pair without flowers or ghosts, which the library can
express (concealed tiles + melds); both scorers time exactly that list. Fanshot always starts from the request
dict (its tile strings), so its parsing and validation are timed. The library runs twice: on prebuilt objects
(136-arrays, Meld objects, HandConfig built beforehand: "prebuilt"), and in the fair race (issue 13) from the
same request's tile strings through its own TilesConverter, Meld and HandConfig ("fair"); the run stops if the two
library inputs ever value a hand differently. Each rate is the median of `--runs` timed passes after one untimed
warm-up pass. "cold": both decomposition caches are cleared before every timed pass (each hand is new to the
scorer, the headline); "warm": they are not (every hand was seen in the warm-up). Bars: issue 2, Fanshot >= 2x
HandCalculator on prebuilt objects; issue 13, Fanshot >= 1.5x on the fair race.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from mahjong.constants import EAST
from mahjong.hand_calculating.divider import HandDivider
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld
from mahjong.tile import TilesConverter

from fanshot.datasets.synth.hands import RULESETS, corpus
from fanshot.scoring import decompose, score
from fanshot.scoring import tiles as t
from fanshot.scoring.evaluate import evaluate
from fanshot.scoring.patterns import Situation
from fanshot.scoring.score import candidates, parse_request
from fanshot.scoring.settle import settle
from fanshot.scoring.validate import check_context, check_melds, check_tiles, ghost_tiles

BAR = 2.0
FAIR_BAR = 1.5  # issue 13: Fanshot >= 1.5x the library when each parses the same tile strings itself
# CPU time of this process leaves out the time it waits for a core on a host shared with other jobs.
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}
MELD_TYPES = {"chow": Meld.CHI, "pung": Meld.PON, "kong": Meld.KAN}
SPECIAL_FLAGS = {"kong_replacement": "is_rinshan", "last_tile": "is_haitei", "robbing_kong": "is_chankan",
                 "heavenly": "is_tenhou", "earthly": "is_chiihou", "human": "is_renhou"}
LibraryHand = tuple[list[int], int, list[Meld], HandConfig]


def is_standard(request: dict) -> bool:
    """A jipinghu hand of 4 sets + a pair, no flowers or ghosts (十三幺 is the one other shape it can take)."""
    hand = request["hand"]
    orphans = not hand["melds"] and set(t.parse(hand["concealed"])) == set(t.TERMINALS + t.HONOUR_TILES)
    return (request["ruleset"] == "jipinghu" and not orphans and not hand.get("flowers")
            and not request["context"].get("ghosts"))


def library_hand(request: dict) -> LibraryHand:
    """The request as HandCalculator input: every tile as a 136-index (melds included), melds, win tile, config."""
    hand, context = request["hand"], request["context"]
    concealed = t.parse(hand["concealed"])
    meld_codes = [t.parse(meld["tiles"]) for meld in hand["melds"]]
    copies: dict[int, int] = {}

    def tile_136(code: str) -> int:
        index = t.INDEX[code]
        copies[index] = copies.get(index, 0) + 1
        return index * 4 + copies[index] - 1

    standing = [tile_136(code) for code in concealed]
    melds = [Meld(Meld.SHOUMINKAN if meld.get("added") else MELD_TYPES[meld["kind"]],
                  [tile_136(code) for code in codes], opened=not meld.get("concealed", False))
             for meld, codes in zip(hand["melds"], meld_codes, strict=True)]
    win_tile = standing[concealed.index(hand["winning_tile"])]
    return standing + [tile for meld in melds for tile in meld.tiles], win_tile, melds, library_config(context)


def library_config(context: dict) -> HandConfig:
    flags = {SPECIAL_FLAGS[s]: True for s in context.get("special", []) if s in SPECIAL_FLAGS}
    return HandConfig(is_tsumo=context["win"] == "self_draw", player_wind=EAST + t.SEATS.index(context["seat_wind"]),
                      round_wind=EAST + t.SEATS.index(context["prevalent_wind"]), **flags)


def library_from_strings(request: dict) -> LibraryHand:
    """The fair race's library side: the request's own tile strings through the library's parser, as its
    documentation shows (every tile of the hand, melds included, in one 136-array; each meld and the winning tile
    parsed on their own)."""
    hand = request["hand"]
    parse_136 = TilesConverter.one_line_string_to_136_array
    melds = [Meld(Meld.SHOUMINKAN if meld.get("added") else MELD_TYPES[meld["kind"]], parse_136(meld["tiles"]),
                  opened=not meld.get("concealed", False)) for meld in hand["melds"]]
    tiles = parse_136(hand["concealed"] + "".join(meld["tiles"] for meld in hand["melds"]))
    return tiles, parse_136(hand["winning_tile"])[0], melds, library_config(request["context"])


def _library_answer(args: LibraryHand) -> tuple:
    result = HandCalculator.estimate_hand_value(args[0], args[1], melds=args[2], config=args[3])
    return result.error, result.han, result.fu, result.cost and result.cost["main"]


def clear_caches() -> None:
    """Forget every decomposition either scorer has memoised (rule sets stay loaded)."""
    for value in vars(decompose).values():
        if hasattr(value, "cache_clear"):
            value.cache_clear()
    HandDivider._divide_hand_impl.cache_clear()


def timed_pass(work: Callable[[Any], Any], items: Sequence[Any], cold: bool, clock: Callable[[], float],
               latencies: bool = False) -> tuple[float, list[float]]:
    """Seconds for one pass over items, and with `latencies` each item's seconds (reading the clock twice per item
    costs about a microsecond, so only the pass that reports latencies does it)."""
    if cold:
        clear_caches()
    each = []
    start = clock()
    if latencies:
        for item in items:
            before = clock()
            work(item)
            each.append(clock() - before)
    else:
        for item in items:
            work(item)
    return clock() - start, each


def measure(requests: list[dict], standard: list[dict], library: list[LibraryHand], runs: int,
            clock: Callable[[], float] = time.process_time) -> dict:
    calculator = HandCalculator()

    def mahjong_value(args: LibraryHand) -> None:
        tiles, win_tile, melds, config = args
        calculator.estimate_hand_value(tiles, win_tile, melds=melds, config=config)

    def mahjong_from_strings(request: dict) -> None:
        mahjong_value(library_from_strings(request))

    jobs = {"fanshot_corpus": (score, requests), "fanshot_standard": (score, standard),
            "mahjong_standard": (mahjong_value, library), "mahjong_strings": (mahjong_from_strings, standard)}
    for work, items in jobs.values():  # warm-up, untimed
        for item in items:
            work(item)
    seconds: dict[str, list[float]] = {f"{name}_{mode}": [] for name in jobs for mode in ("cold", "warm")}
    latencies: list[float] = []
    for _ in range(runs):  # interleaved, so that machine load falls on all alike
        for mode in ("cold", "warm"):
            for name, (work, items) in jobs.items():
                wanted = name == "fanshot_corpus" and mode == "cold"
                elapsed, each = timed_pass(work, items, cold=mode == "cold", clock=clock, latencies=wanted)
                seconds[f"{name}_{mode}"].append(elapsed)
                latencies.extend(each)
    sizes = {name: len(items) for name, (_, items) in jobs.items()}
    rates = {key: sizes[key.rsplit("_", 1)[0]] / statistics.median(values) for key, values in seconds.items()}
    by_ruleset = {name: [s for r, s in zip(requests * runs, latencies, strict=True) if r["ruleset"] == name]
                  for name in RULESETS}
    return {
        "rates": {key: round(value) for key, value in rates.items()},
        "ratio_cold": round(rates["fanshot_standard_cold"] / rates["mahjong_standard_cold"], 2),
        "ratio_warm": round(rates["fanshot_standard_warm"] / rates["mahjong_standard_warm"], 2),
        "fair_ratio_cold": round(rates["fanshot_standard_cold"] / rates["mahjong_strings_cold"], 2),
        "fair_ratio_warm": round(rates["fanshot_standard_warm"] / rates["mahjong_strings_warm"], 2),
        "corpus_by_ruleset_cold": {name: round(len(values) / sum(values)) for name, values in by_ruleset.items()},
        "corpus_latency_ms_cold": {"p50": _ms(latencies, 0.5), "p99": _ms(latencies, 0.99), "max": _ms(latencies, 1)},
    }


def parts(standard: list[dict], runs: int, clock: Callable[[], float]) -> dict[str, float]:
    """µs per standard hand of each part of either side, timed alone (the fastest of `runs` passes, caches cleared
    before each): what `score()` spends where, against the library's parsing and valuation."""
    parsed = [parse_request(r) for r in standard]
    found = [candidates(rs, hand, ()) for rs, hand, _ in parsed]
    situations = [(rs, Situation(a[0], hand, ctx, rs.options, (), 0))
                  for (rs, hand, ctx), a in zip(parsed, found, strict=True)]
    evaluations = [evaluate(rs, situation) for rs, situation in situations]
    prebuilt = [library_hand(r) for r in standard]
    calculator = HandCalculator()
    jobs: dict[str, Callable[[], object]] = {
        "fanshot score()": lambda: [score(r) for r in standard],
        "fanshot parse_request": lambda: [parse_request(r) for r in standard],
        "fanshot validation": lambda: [(ghost_tiles(rs, ctx), check_tiles(rs, hand, ctx), check_melds(rs, hand, ctx),
                                        check_context(rs, hand, ctx)) for rs, hand, ctx in parsed],
        "fanshot decomposition": lambda: [candidates(rs, hand, ()) for rs, hand, _ in parsed],
        "fanshot situation facts": lambda: [Situation(a[0], hand, ctx, rs.options, (), 0)
                                            for (rs, hand, ctx), a in zip(parsed, found, strict=True)],
        "fanshot evaluation": lambda: [evaluate(rs, situation) for rs, situation in situations],
        "fanshot settlement": lambda: [settle(rs, hand, ctx, e.points)
                                       for (rs, hand, ctx), e in zip(parsed, evaluations, strict=True)],
        "mahjong parsing": lambda: [library_from_strings(r) for r in standard],
        "mahjong HandConfig": lambda: [library_config(r["context"]) for r in standard],
        "mahjong estimate_hand_value": lambda: [calculator.estimate_hand_value(h[0], h[1], melds=h[2], config=h[3])
                                                for h in prebuilt],
    }
    fastest = {}
    for name, job in jobs.items():
        times = []
        for _ in range(runs):
            clear_caches()
            start = clock()
            job()
            times.append(clock() - start)
        fastest[name] = round(1e6 * min(times) / len(standard), 1)
    return fastest


def _ms(values: list[float], quantile: float) -> float:
    ordered = sorted(values)
    return round(1000 * ordered[min(len(ordered) - 1, int(quantile * len(ordered)))], 3)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=10_000, help="corpus size (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="corpus seed (default 1)")
    parser.add_argument("--runs", type=int, default=10, help="timed passes per scorer and mode (default 10)")
    parser.add_argument("--clock", choices=CLOCKS, default="cpu",
                        help="cpu: this process's CPU time (default; steady on a shared host), wall: elapsed time")
    parser.add_argument("--parts", action="store_true",
                        help="instead: µs per standard hand of each part of either side, each timed alone")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    requests = corpus(args.n, args.seed)
    standard = [r for r in requests if is_standard(r)]
    if args.parts:
        found = parts(standard, args.runs, CLOCKS[args.clock])
        print(json.dumps(found, indent=2) if args.json else
              "\n".join(f"{name:<30} {us:>7} µs" for name, us in found.items()))
        return 0
    library = [library_hand(r) for r in standard]
    refused = [r for r, h in zip(standard, library, strict=True)
               if HandCalculator.estimate_hand_value(h[0], h[1], melds=h[2], config=h[3]).error
               in (HandCalculator.ERR_HAND_NOT_WINNING, HandCalculator.ERR_NO_WINNING_TILE)]
    if refused:  # the conversion must hand the library the same winning hands
        raise SystemExit(f"mahjong refuses {len(refused)} standard hands as not winning, e.g. {refused[0]}")
    differ = [r for r, h in zip(standard, library, strict=True) if _library_answer(h) != _library_answer(
        library_from_strings(r))]
    if differ:  # its own parsing must give it the same hands as the prebuilt objects
        raise SystemExit(f"mahjong values {len(differ)} hands differently from strings, e.g. {differ[0]}")
    result = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), "python": platform.python_version(),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores", "load_1m": round(os.getloadavg()[0], 2),
        "n": args.n, "seed": args.seed, "runs": args.runs,
        "corpus": {name: sum(r["ruleset"] == name for r in requests) for name in RULESETS},
        "standard_hands": len(standard),
        "clock": args.clock, **measure(requests, standard, library, args.runs, CLOCKS[args.clock]),
    }
    result["load_1m_after"] = round(os.getloadavg()[0], 2)
    print(json.dumps(result, indent=2) if args.json else report(result))
    return 0


def report(r: dict) -> str:
    rates = r["rates"]
    verdict = "meets" if r["ratio_cold"] >= BAR else "is BELOW"
    return "\n".join([
        f"Fanshot scoring benchmark, {r['date']}, Python {r['python']}, {r['machine']}, "
        f"load {r['load_1m']} -> {r['load_1m_after']}, {r['clock']} clock",
        f"corpus: {r['n']} hands (seed {r['seed']}): " + ", ".join(f"{k} {v}" for k, v in r["corpus"].items()),
        f"standard hands (jipinghu 4 sets + pair): {r['standard_hands']}; median of {r['runs']} timed passes",
        "                                          cold caches   warm caches  (hands/s)",
        f"Fanshot score(), whole corpus           {rates['fanshot_corpus_cold']:>12}  "
        f"{rates['fanshot_corpus_warm']:>12}",
        f"Fanshot score(), standard hands         {rates['fanshot_standard_cold']:>12}  "
        f"{rates['fanshot_standard_warm']:>12}",
        f"mahjong HandCalculator, standard hands  {rates['mahjong_standard_cold']:>12}  "
        f"{rates['mahjong_standard_warm']:>12}",
        f"ratio Fanshot / mahjong                 {r['ratio_cold']:>12}  {r['ratio_warm']:>12}",
        "fair race: the library parses the same tile strings itself (TilesConverter, Meld, HandConfig)",
        f"mahjong parse + HandCalculator          {rates['mahjong_strings_cold']:>12}  "
        f"{rates['mahjong_strings_warm']:>12}",
        f"fair ratio Fanshot / mahjong            {r['fair_ratio_cold']:>12}  {r['fair_ratio_warm']:>12}",
        "whole corpus by rule set (cold): " + ", ".join(f"{k} {v}/s" for k, v in r["corpus_by_ruleset_cold"].items()),
        "whole corpus latency (cold): " + ", ".join(f"{k} {v} ms" for k, v in r["corpus_latency_ms_cold"].items()),
        f"bar: Fanshot >= {BAR}x mahjong, prebuilt (cold): {verdict} the bar",
        f"bar: Fanshot >= {FAIR_BAR}x mahjong, fair race (cold): "
        + ("meets" if r["fair_ratio_cold"] >= FAIR_BAR else "is BELOW") + " the bar",
    ])


if __name__ == "__main__":
    raise SystemExit(main())
