"""Guangdong mahjong scoring: pure Python, no third-party imports.

    score(request)          the score response for a score request (docs/API.md); raises ScoringError
    ruleset_summaries()     name, names and options of every rule set
    ruleset_details(name)   everything a rule set scores, with its options
    warm()                  load every rule set and build the scorer's tables now, not on the first requests
"""

from fanshot.scoring.decompose import build_tables
from fanshot.scoring.errors import ScoringError
from fanshot.scoring.rules import load, ruleset_names
from fanshot.scoring.score import score


def ruleset_summaries() -> list[dict]:
    """Each rule set's names and options, and whether a hand may hold ghost tiles (the page lays its form out by it)."""
    return [{**{key: value for key, value in load(name).describe().items() if key in ("name", "zh", "en", "options")},
             "ghosts_in_play": load(name).ghosts_in_play} for name in ruleset_names()]


def ruleset_details(name: str) -> dict:
    return load(name).describe()


__all__ = ["ScoringError", "score", "ruleset_summaries", "ruleset_details"]


def warm() -> None:
    for name in ruleset_names():
        load(name)
    build_tables()
