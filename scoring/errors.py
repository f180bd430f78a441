"""Errors as values: every way a score request can be refused, with a stable code and a precise message."""

from __future__ import annotations

import math

# code -> what it means. Every code has a test (tests/scoring/test_errors.py).
ERROR_CODES = {
    "bad_request": "the request is not a JSON object of the documented shape",
    "bad_tile": "a tile string or code is malformed",
    "bad_meld": "a meld's kind, tiles or flags are inconsistent",
    "too_many_copies": "a tile appears more than four times, or a flower twice",
    "too_many_tiles": "大相公: more tiles than a winning hand holds",
    "too_few_tiles": "小相公: fewer tiles than a winning hand holds",
    "not_winning": "the tiles form no winning shape",
    "below_minimum_fan": "the hand is worth less than the rule set's minimum to win (起胡)",
    "winning_tile_missing": "the winning tile is not among the standing tiles",
    "unknown_ruleset": "no rule set of that name",
    "unknown_option": "an option the rule set does not have",
    "bad_option": "an option value of the wrong type or out of range",
    "bad_context": "the win context is malformed or impossible",
    "not_allowed": "the rule set forbids this (chow, discard win, flowers, ghosts, horses)",
}


class ScoringError(Exception):
    """A refused request: `code` is one of ERROR_CODES, `message` says exactly what is wrong, and `detail` says it
    for a program (a client words it in its reader's language): `field`, the request member at fault
    (`context.horses`, `hand.melds[1]`), `reason` where one code and field have several fixes, and the values a
    fix needs (`expected` and `given`, a bad tile's `token` and `position`). docs/API.md lists the keys."""

    def __init__(self, code: str, message: str, **detail: object) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"undocumented error code {code!r}")
        super().__init__(code, message)
        self.code = code
        self.message = message
        # a value that is not finite is named, not repeated: JSON has no NaN or Infinity to print it with
        self.detail = {key: value if not isinstance(value, float) or math.isfinite(value) else str(value)
                       for key, value in detail.items()}

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **({"detail": self.detail} if self.detail else {})}
