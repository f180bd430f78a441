"""Games: their setup, hands as sent, and the replayed scoresheet (/v1/games)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from fanshot.api.schemas.common import Number, Strict
from fanshot.api.schemas.scoring import ScoreRequestJSON, StakeJSON

Player = Annotated[int, Field(ge=0, le=3, strict=True, description="a player: index 0-3 in the order of `players`")]


class GameCreate(Strict):
    ruleset: str = Field("jipinghu", description="a rule set name (GET /v1/rulesets)")
    options: dict[str, Any] = Field(default_factory=dict, description="rule-set option overrides")
    players: list[str] = Field(min_length=4, max_length=4,
                               description="four names: the first dealer first, then counter-clockwise")
    stake: StakeJSON = Field(None, description="the stake of every hand (`unit` per point, `fee` per hand)")


class Win(Strict):
    winner: Player
    request: ScoreRequestJSON = Field(description="the winning hand's score request; the game fills in the seat "
                                  "wind, the prevalent wind, the discarder and the stake")
    recognition_id: str | None = Field(None, description="the recognition (photo) the hand came from")


class Kong(Strict):
    player: Player
    kind: Literal["concealed", "exposed", "added"]
    made_from: Player | None = Field(None, alias="from", description="whose discard made an exposed kong")


KONGS = "the kongs of players other than the winner, where the rule set pays kongs apart from the win"


class WinHand(Strict):
    kind: Literal["win"]
    discarder: Player | None = Field(None, description="whose discard won; null for a self-draw")
    wins: list[Win] = Field(min_length=1, max_length=3, description="several on one discard where allowed")
    kongs: list[Kong] | None = Field(None, description=KONGS)


class DrawHand(Strict):
    kind: Literal["draw"]
    kongs: list[Kong] | None = Field(None, description=KONGS)


HandInput = Annotated[WinHand | DrawHand, Field(discriminator="kind")]


class GamePlayer(BaseModel):
    name: str
    seat_wind: str = Field(description="the player's wind for the next hand")
    total: Number = Field(description="money: the running sum of payments, fees included")
    points: Number
    fees: Number


class PlayedHand(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str = Field(description="the hand's stable id: PUT / DELETE /v1/games/{id}/hands/{hand_id} address it")
    n: int = Field(description="counting from 1, for display: it shifts when an earlier hand is deleted")
    kind: Literal["win", "draw"]
    dealer: int
    prevalent_wind: str
    seat_winds: list[str]
    points: list[Number] = Field(description="per player")
    payments: list[Number] = Field(description="money per player: points x stake unit, less the fee")


class Transfer(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    payer: int = Field(alias="from")
    payee: int = Field(alias="to")
    amount: Number


class Game(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    version: int
    ruleset: str
    options: dict[str, Any]
    stake: dict[str, Any]
    players: list[GamePlayer]
    dealer: int = Field(description="who deals the next hand")
    prevalent_wind: str
    hands: list[PlayedHand]
    settlement: list[Transfer] = Field(description="the fewest transfers that square everyone, fees apart")
