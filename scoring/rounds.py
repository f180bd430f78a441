"""Dealer and prevalent wind across a game (docs/RULES.md "Dealer and rounds"; seeds 000, 001, 003).

Players sit 0-3 in turn order, player 0 dealing first. The dealer always holds the East seat (1z); each
player's seat wind follows from who deals. Who deals next is rule-set data (`[rotation]` in the rule set file)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanshot.scoring import tiles as t
from fanshot.scoring.errors import ScoringError

# after a win: "dealer_stays" - the dealer keeps the deal when among the winners, else the dealer's next deals;
#              "winner_deals" - the winner deals (the dealer stays when among several winners)
# after a draw 流局: "dealer_stays" or "next_deals" (the dealer's next player)
ROTATION_CHOICES = {"win": ("dealer_stays", "winner_deals"), "draw": ("dealer_stays", "next_deals")}
SEATS = 4


@dataclass(frozen=True)
class Rotation:
    win: str = "dealer_stays"
    draw: str = "dealer_stays"


DEALER_STAYS = Rotation()  # seeds 000, 001 and 003: 「如果庄家胡牌或和牌（流局）则下盘依然由该庄家做庄」

@dataclass(frozen=True)
class Round:
    dealer: int = 0  # the player who deals this hand
    passes: int = 0  # seats the deal has moved on (counter-clockwise) since the game began

    @property
    def prevalent_wind(self) -> str:
        """East first; the wind advances each time the deal has gone once round the table (a 圈)."""
        return t.WINDS[(self.passes // SEATS) % 4]

    def seat_wind(self, player: int) -> str:
        return t.WINDS[(player - self.dealer) % SEATS]

    def player_at(self, seat: str) -> int:
        return (self.dealer + t.WINDS.index(seat)) % SEATS

    def dealt_by(self, dealer: int) -> Round:
        return Round(dealer, self.passes + (dealer - self.dealer) % SEATS)


def next_round(current: Round, winners: Sequence[int] = (), *, drawn: bool = False,
               rotation: Rotation = DEALER_STAYS) -> Round:
    """The next hand's round. `winners` in turn order from the discarder: under "winner_deals" with several
    winners and no dealer among them, the first listed deals."""
    if drawn == bool(winners):
        raise ScoringError("bad_context", "a hand ends either in a draw or with winners, not both or neither")
    if any(p not in range(SEATS) for p in winners) or len(set(winners)) != len(winners) or len(winners) > 3:
        raise ScoringError("bad_context", f"winners: one to three distinct players 0-3, got {list(winners)}")
    if drawn:
        return current if rotation.draw == "dealer_stays" else current.dealt_by((current.dealer + 1) % SEATS)
    if current.dealer in winners:
        return current
    return current.dealt_by(winners[0] if rotation.win == "winner_deals" else (current.dealer + 1) % SEATS)
