"""Dealer and prevalent wind across a game, for a ledger (RULES.md "Dealer and rounds", seed 000/001).

Players sit 0-3 in turn order, player 0 dealing first. The dealer always holds the East seat (1z); each
player's seat wind follows from who deals."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from scoring import tiles as t
from scoring.errors import ScoringError


@dataclass(frozen=True)
class Round:
    dealer: int = 0  # the player who deals this hand
    passes: int = 0  # times the deal has passed to the next player since the game began

    @property
    def prevalent_wind(self) -> str:
        """East first; the wind advances each time all four players have dealt once (a 圈)."""
        return t.WINDS[(self.passes // 4) % 4]

    def seat_wind(self, player: int) -> str:
        return t.WINDS[(player - self.dealer) % 4]


def next_round(current: Round, winners: Collection[int] = (), *, drawn: bool = False) -> Round:
    """The dealer stays on winning or on a draw 流局 (also when a multi-win includes the dealer);
    otherwise the dealer's next player deals."""
    if drawn == bool(winners):
        raise ScoringError("bad_context", "a hand ends either in a draw or with winners, not both or neither")
    if any(p not in range(4) for p in winners) or len(set(winners)) != len(winners) or len(winners) > 3:
        raise ScoringError("bad_context", f"winners: one to three distinct players 0-3, got {list(winners)}")
    if drawn or current.dealer in winners:
        return current
    return Round(dealer=(current.dealer + 1) % 4, passes=current.passes + 1)
