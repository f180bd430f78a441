"""Scoring's requests and answers: POST /v1/score, /v1/analyse and /v1/notation. A score request is checked by the
scorer's parser alone, so the API refuses exactly what `fanshot score --json` refuses; its models only document it."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema, create_model

from fanshot.api.schemas.common import Number, Strict, inline_schema, nullable
from fanshot.scoring.hand import HAND_HELP, MAX_STAKE, MELD_KINDS, SPECIAL_WINS, WIN_TYPES
from fanshot.scoring.rules import CAP_RELATIVE, MAX_FAN, OPTIONS


def option_type(kind: type, allowed: range | tuple[str, ...] | None) -> Any:
    if isinstance(allowed, range):
        return Annotated[int, Field(ge=allowed.start, le=allowed.stop - 1)]
    return Literal[allowed] if isinstance(allowed, tuple) else kind


FanValue = Annotated[int, Field(ge=0, le=MAX_FAN)] | Annotated[str, Field(pattern=CAP_RELATIVE.pattern)]


Options = create_model(
    "Options", __base__=Strict,
    fans=(dict[str, FanValue] | None, Field(None, description="pattern id → fan value (`cap`, `cap+N` where "
                                                              "the rule set has a cap); `--option fans.ID=N`")),
    **{name: (option_type(*rule) | None, None) for name, rule in OPTIONS.items()})


Seat = Annotated[str, Field(description="a seat wind: 1z-4z, or E S W N")]


StakeNumber = Annotated[float, Field(ge=0, le=MAX_STAKE)]


class Meld(Strict):
    kind: Literal[MELD_KINDS]  # type: ignore[valid-type]
    tiles: str = Field(description="compact notation, e.g. `789m`, `7777z`")
    concealed: bool | None = Field(None, description="a concealed kong (暗杠)")
    added: bool | None = Field(None, description="a kong added to one's own pung (补杠)")
    fed_by: Seat | None = Field(None, description="seat whose discard made this exposed kong (点杠)")


class Hand(Strict):
    concealed: str = Field(description="standing tiles, winning tile included, e.g. `123m456p11z`")
    melds: list[Meld] | None = None
    flowers: str | None = Field(None, description="e.g. `15f`")
    winning_tile: str | None = Field(None, description="one tile; omitted: the scorer takes none as drawn last")


Stake = create_model("Stake", __base__=Strict, **{
    name: (StakeNumber | None, Field(None, description=description)) for name, description in (
        ("unit", "amount per point"), ("fee", "fee charged to every seat"),
        ("flower", "qianggang: stake per flower"), ("kong", "qianggang: stake per kong"),
        ("chicken", "qianggang: stake of a chicken hand"))})


class Context(Strict):
    win: Literal[WIN_TYPES] | None = None  # type: ignore[valid-type]
    seat_wind: Seat | None = Field(None, description="the winner's seat; the dealer is always 1z")
    prevalent_wind: Seat | None = None
    discarder: Seat | None = Field(None, description="seat of the discarder, for a discard win")
    special: list[Literal[SPECIAL_WINS]] | None = None  # type: ignore[valid-type]
    liable: Seat | None = Field(None, description="seat liable under a 包 rule")
    kong_fed_by: Seat | None = Field(None, description="for 杠上开花 on a kong made from a discard")
    ghosts: str | None = Field(None, description="tuidaohu ghost tile(s)")
    horses: str | None = Field(None, description="horse tiles drawn")
    stake: Stake | None = None  # type: ignore[valid-type]


class ScoreRequest(Strict):
    ruleset: str = Field("jipinghu", description="a rule set name (GET /v1/rulesets); leave it out for jipinghu")
    options: Options | None = Field(None, description="rule-set option overrides")  # type: ignore[valid-type]
    hand: Hand
    context: Context | None = None


# A score request, or a part of one, in a body: documented by its model, checked by the scorer's parser alone.
ScoreRequestJSON = Annotated[Any, WithJsonSchema(inline_schema(ScoreRequest))]


StakeJSON = Annotated[Any, WithJsonSchema(nullable(Stake))]


# Null in these members is refused by the scorer, not taken as "not given": a null rule set would score silently
# under the default one, where the CLI refuses it (issue 35).
NOT_NULLABLE = frozenset({"ruleset"})


def scorer_input(value: Any) -> Any:
    """A JSON object's null members dropped, at every depth: over HTTP, null means "not given" (but a null
    `ruleset` stays, for the scorer to refuse)."""
    if isinstance(value, dict):  # only objects are walked into: a call per leaf was most of its time
        return {key: scorer_input(item) if isinstance(item, dict) else item for key, item in value.items()
                if item is not None or key in NOT_NULLABLE}
    return value


class Fan(BaseModel):
    id: str
    zh: str
    zh_hant: str = Field(description="the name in Traditional characters, as Cantonese players say it")
    en: str
    fan: Number
    kind: str = Field(description="the rule-set table it comes from: hands, extras, specials, bonuses, floors, "
                      "fixed_points")


class PerPayerParts(BaseModel):
    hand: Number = Field(description="the hand: points x unit (qianggang: x the chicken stake)")
    horses: Number = Field(description="the hand once more for each horse on the winner")
    flowers: Number = Field(description="qianggang: the flower stake per flower")
    kongs: Number = Field(description="qianggang: the kong stake per kong of the winner")


class ScoreResponse(BaseModel):
    model_config = ConfigDict(extra="allow")
    ruleset: str
    options: dict[str, Any]
    fans: list[Fan]
    fan_total: Number
    capped: bool
    limit: bool
    points: Number = Field(description="the hand's value in points, 2^fan_total (or a fixed value such as 满鬼)")
    stake: dict[str, Number] = Field(description="unit and fee in force; qianggang adds flower, kong and chicken")
    per_payer: Number = Field(description="what each paying player owes the winner: the sum of per_payer_parts")
    per_payer_parts: PerPayerParts
    payments: dict[str, Number] = Field(description="seat code → signed amount; sums to zero")
    decomposition: Any
    warnings: list[Any]


class AnalyseHand(Hand):
    concealed: str = Field(description="standing tiles: 13 (waits), or 14 (discards), kongs counted as 3")
    winning_tile: str | None = Field(None, description="omitted: the analysis tries every tile")


class AnalyseRequest(ScoreRequest):
    """A score request whose hand has 13 tiles, or 14 without `winning_tile`. `context.win` and `discarder` are
    optional (every wait is valued both ways; the discarder defaults to the winner's previous seat); `special`,
    `horses`, `liable` and `kong_fed_by` describe a finished win and are refused."""

    hand: AnalyseHand


# Documented by its model, checked by the scorer's parser alone (as POST /v1/score): no second validator to coerce
# "3" into 3 where the scorer refuses it.
AnalyseRequestJSON = Annotated[Any, WithJsonSchema(inline_schema(AnalyseRequest))]


class WinValue(BaseModel):
    fan_total: Number
    points: Number = Field(description="as POST /v1/score's `points`")


class Useful(BaseModel):
    tile: str
    remaining: int = Field(description="4 minus the copies the hand and its melds show")


class Wait(Useful):
    self_draw: WinValue | None = Field(description="null: below the rule set's minimum fan")
    discard: WinValue | None = Field(description="null: the rule set allows no discard win, or below its minimum")


class Shanten(BaseModel):
    shanten: int = Field(description="-1 complete, 0 ready, n: n exchanges from ready")
    waits: list[Wait] | None = Field(None, description="when ready: every tile that completes the hand")
    useful: list[Useful] | None = Field(None, description="when not ready: every tile that lowers `shanten`")


class DiscardChoice(Shanten):
    discard: str


class AnalyseResponse(Shanten):
    ruleset: str
    tiles: int = Field(description="13 or 14, kongs counted as 3")
    discards: list[DiscardChoice] | None = Field(None, description="14 tiles: every discard, best first")


class NotationRequest(BaseModel):
    text: str = Field(description=HAND_HELP, examples=["123m456p789s11z [555s] (1111p)"])


class NotationMeld(BaseModel):
    kind: str = Field(description="chow, pung or kong")
    tiles: list[str]
    concealed: bool
    added: bool
    fed_by: str | None


class NotationTiles(BaseModel):
    concealed: list[str] = Field(description="the standing tiles' codes, in the order typed")
    melds: list[NotationMeld]
