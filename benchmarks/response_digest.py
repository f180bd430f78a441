"""Every score response, byte for byte, over seeded hands and broken variants of them: a fingerprint to compare two
commits by, so that speed work is shown to change no answer and no error.

    .venv/bin/python benchmarks/response_digest.py [--n 2000] [--seed 1] [--out responses.jsonl] [--json]

Each corpus request (datasets.synth.hands.corpus) is scored as drawn and in eight variants that most often fail
validation: a standing tile dropped, another winning tile, a changed or unknown option, a changed context field,
the last meld dropped, flowers added, another rule set, a discard win from a drawn seat. Each response is one JSON
line (keys in the scorer's order), each refusal the line `error <code>: <message>`; the digest is the SHA-256 of
all lines. Run it on both commits and compare the digests (`--out` keeps the lines, for `diff`).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random
from collections.abc import Iterator, Sequence

from fanshot.datasets.synth.hands import corpus
from fanshot.scoring import ScoringError, score

OPTION_CHANGES = ("cap", "chow", "ghosts", "nope", "min_fan", "fans", "horses")
OPTION_VALUES = (3, True, "flip", {"chicken": 2}, {"all_pungs": "cap"}, -2, 99)
CONTEXT_FIELDS = ("seat_wind", "prevalent_wind", "discarder", "liable", "kong_fed_by", "win", "special", "ghosts",
                  "horses", "stake")
CONTEXT_VALUES = ("1z", "S", "3z", "discard", "self_draw", ["last_tile"], ["robbing_kong"], ["heavenly"], "5z",
                  "19m", {"fee": 1}, {"kong": 2}, None, 5)


def variants(request: dict, rng: random.Random) -> Iterator[dict]:
    """The request, then eight edited copies of it."""
    yield request
    edits = [
        lambda r: r["hand"].update(concealed=r["hand"]["concealed"][1:]),
        lambda r: r["hand"].update(winning_tile=rng.choice(["1m", "9p", "5z", "E", "x", "11m"])),
        lambda r: r.setdefault("options", {}).update({rng.choice(OPTION_CHANGES): rng.choice(OPTION_VALUES)}),
        lambda r: r["context"].update({rng.choice(CONTEXT_FIELDS): rng.choice(CONTEXT_VALUES)}),
        lambda r: r["hand"].update(melds=r["hand"]["melds"][:-1]),
        lambda r: r["hand"].update(flowers=rng.choice(["1f", "11f", "12f", "1m"])),
        lambda r: r.update(ruleset=rng.choice(["jipinghu", "tuidaohu", "xinzhang", "qianggang", "nope"])),
        lambda r: r["context"].update(win="discard", discarder=rng.choice(["1z", "2z", "3z", "4z"])),
    ]
    for edit in edits:
        edited = copy.deepcopy(request)
        edit(edited)
        yield edited


def response_lines(n: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for request in corpus(n, seed):
        for variant in variants(request, rng):
            try:
                yield json.dumps(score(variant), ensure_ascii=False)
            except ScoringError as error:
                yield f"error {error}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="corpus hands (default 2000), 9 requests each")
    parser.add_argument("--seed", type=int, default=1, help="corpus and variant seed (default 1)")
    parser.add_argument("--out", help="also write every line to this file")
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args(argv)
    lines = list(response_lines(args.n, args.seed))
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            out.writelines(line + "\n" for line in lines)
    refused = sum(line.startswith("error ") for line in lines)
    result = {"requests": len(lines), "scored": len(lines) - refused, "refused": refused,
              "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest()}
    print(json.dumps(result) if args.json else
          f"{result['requests']} requests ({result['scored']} scored, {result['refused']} refused): "
          f"sha256 {result['sha256']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
