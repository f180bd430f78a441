"""Hand-aware corrections: the most probable changes of tile codes that make the proposed hand a winning one.

A change swaps a tile's code for one of its ranked alternatives; a suggestion's `p` is the product of the
alternatives' probabilities (the classifier's belief that every changed tile is really what it proposes)."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from fanshot.scoring import score
from fanshot.scoring.errors import ScoringError
from fanshot.vision.config import Suggestions
from fanshot.vision.layout import propose_hand

COUNT_ERRORS = {"too_many_tiles", "too_few_tiles"}


def hand_problem(hand: dict[str, Any]) -> str | None:
    """None when the hand is a winning shape (under the broadest rules: chows and 七对 allowed, no minimum);
    else the scorer's error code."""
    shape_only = {**hand, "flowers": ""}  # flowers never change the shape; jipinghu refuses them
    try:
        score({"hand": shape_only, "options": {"min_fan": 0, "seven_pairs": True}})
    except ScoringError as error:
        return error.code
    return None


def _changes(tiles: list[dict], min_p: float) -> list[tuple[int, str, float]]:
    return [(i, alt["code"], alt["p"]) for i, tile in enumerate(tiles)
            for alt in tile["alternatives"] if alt["p"] >= min_p]


def suggest(tiles: list[dict], groups: list[dict], settings: Suggestions | None = None) -> list[dict]:
    """Up to `settings.most` suggestions `{changes: [{tile, from, to}], p, text}`, most probable first; none when
    the hand already wins or has the wrong number of tiles (a code change cannot fix a missed tile)."""
    settings = settings or Suggestions()
    codes = [tile["code"] for tile in tiles]
    problem = hand_problem(propose_hand(groups, codes))
    if problem is None or problem in COUNT_ERRORS:
        return []
    singles = _changes(tiles, settings.min_p)
    doubtful = set(sorted(range(len(tiles)), key=lambda i: tiles[i]["confidence"])[:settings.double_change_tiles])
    doubles = [pair for pair in combinations([c for c in singles if c[0] in doubtful], 2) if pair[0][0] != pair[1][0]]
    found = []
    for changes in [(c,) for c in singles] + doubles:
        changed = list(codes)
        for i, code, _ in changes:
            changed[i] = code
        if hand_problem(propose_hand(groups, changed)) is None:
            found.append(_suggestion(changes, codes))
    return sorted(found, key=lambda s: -s["p"])[:settings.most]


def _suggestion(changes: tuple[tuple[int, str, float], ...], codes: list[str]) -> dict:
    p = 1.0
    for _, _, alt_p in changes:
        p *= alt_p
    parts = ", ".join(f"tile {i + 1}: {codes[i]} → {code}" for i, code, _ in changes)
    return {"changes": [{"tile": i, "from": codes[i], "to": code} for i, code, _ in changes],
            "p": round(p, 4), "text": f"{parts} makes a winning hand (p {p:.2f})"}
