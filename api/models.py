"""The HTTP boundary's types (DESIGN.md). Shapes are checked here; tile notation, rule-set options and win
contexts are checked by the scorer, so the API refuses exactly what `fanshot score --json` refuses."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from scoring.tiles import DETECTOR_CLASSES

TileCode = Literal[DETECTOR_CLASSES]  # type: ignore[valid-type]  # the 43 detector classes, in order
Number = int | float


class Strict(BaseModel):
    # A misspelt key must not be silently ignored: it would score a different hand than the user meant.
    model_config = ConfigDict(extra="forbid")


class ErrorItem(BaseModel):
    code: str
    message: str


class ErrorResponse(BaseModel):
    errors: list[ErrorItem]


class Meld(Strict):
    kind: Literal["chow", "pung", "kong"]
    tiles: str = Field(description="compact notation, e.g. `789m`, `7777z`")
    concealed: bool | None = Field(None, description="a concealed kong (暗杠)")
    added: bool | None = Field(None, description="a kong added to one's own pung (补杠)")
    fed_by: str | None = Field(None, description="seat whose discard made this exposed kong (点杠)")


class Hand(Strict):
    concealed: str = Field(description="standing tiles, winning tile included, e.g. `123m456p11z`")
    melds: list[Meld] | None = None
    flowers: str | None = Field(None, description="e.g. `15f`")
    winning_tile: str


class Stake(Strict):
    unit: Number | None = Field(None, description="amount per point")
    fee: Number | None = Field(None, description="fee charged to every seat")
    flower: Number | None = Field(None, description="qianggang: stake per flower")
    kong: Number | None = Field(None, description="qianggang: stake per kong")
    chicken: Number | None = Field(None, description="qianggang: stake of a chicken hand")


SpecialWin = Literal["kong_replacement", "last_tile", "robbing_kong", "heavenly", "earthly", "human",
                     "multi_win"]


class Context(Strict):
    win: Literal["self_draw", "discard"] | None = None
    seat_wind: str | None = Field(None, description="the winner's seat; the dealer is always 1z")
    prevalent_wind: str | None = None
    discarder: str | None = Field(None, description="seat of the discarder, for a discard win")
    special: list[SpecialWin] | None = None
    liable: str | None = Field(None, description="seat liable under a 包 rule")
    kong_fed_by: str | None = Field(None, description="for 杠上开花 on a kong made from a discard")
    ghosts: str | None = Field(None, description="tuidaohu ghost tile(s)")
    horses: str | None = Field(None, description="horse tiles drawn")
    stake: Stake | None = None


class ScoreRequest(Strict):
    ruleset: str | None = Field(None, description="default jipinghu")
    options: dict[str, bool | int | float | str] | None = Field(None, description="rule-set option overrides")
    hand: Hand
    context: Context | None = None

    def as_scorer_input(self) -> dict[str, Any]:
        """What the client sent; null means "not given", so the scorer applies its own defaults."""
        return self.model_dump(exclude_unset=True, exclude_none=True)


class Fan(BaseModel):
    id: str
    zh: str
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


class ImageSize(BaseModel):
    width: int
    height: int


class DetectedTile(BaseModel):
    model_config = ConfigDict(extra="allow")
    box: list[float] = Field(description="[x1, y1, x2, y2] in pixels of `image`")
    code: str
    confidence: float
    alternatives: list[Any] = Field(description="the next most likely codes with probabilities")


Box = tuple[float, float, float, float]


class LabelledTile(BaseModel):
    # Other keys are ignored: a client may echo the recognition's tiles (confidence, alternatives) back.
    code: TileCode
    box: Box = Field(description="[x1, y1, x2, y2] in pixels of the recognition's `image`")


class PlacedMeld(BaseModel):
    kind: Literal["chow", "pung", "kong"]
    tiles: list[int] = Field(description="indices into the tiles")
    concealed: bool | None = None
    added: bool | None = None
    fed_by: str | None = None
    face: TileCode | None = Field(None, description="a concealed kong shown as four backs: the tile it is of")


class HandTiles(BaseModel):
    """Which tiles make up the hand, by index into the tiles listed beside it; `loose`: tiles in the photo
    that are not part of the hand."""

    concealed: list[int] = []
    melds: list[PlacedMeld] = []
    flowers: list[int] = []
    loose: list[int] = []

    def indices(self) -> list[int]:
        return self.concealed + self.flowers + self.loose + [i for meld in self.melds for i in meld.tiles]


class Confirmation(BaseModel):
    """The corrected reading of a photo: each visible tile with its box (the training labels); the hand; and,
    optionally, where each tile sits in the hand and how the hand was won, so the page can restore its work."""

    tiles: list[LabelledTile] = Field(max_length=200)
    hand: Hand
    hand_tiles: HandTiles | None = Field(None, description="the hand's tiles by index into `tiles`")
    ruleset: str | None = None
    options: dict[str, bool | int | float | str] | None = None
    context: Context | None = Field(None, description="the score request's context the player chose")

    @model_validator(mode="after")
    def placed_tiles_exist_once(self) -> Confirmation:
        placed = self.hand_tiles.indices() if self.hand_tiles else []
        if any(not 0 <= index < len(self.tiles) for index in placed) or len(set(placed)) < len(placed):
            raise ValueError("hand_tiles must name each of the tiles at most once, by its index in tiles")
        return self


class StoredConfirmation(Confirmation):
    confirmed_at: str


class Recognition(BaseModel):
    model_config = ConfigDict(extra="allow")
    id: str
    image: ImageSize
    tiles: list[DetectedTile]
    groups: list[Any]
    hand: Any = Field(description="a proposed score-request `hand`")
    hand_tiles: HandTiles | None = Field(None, description="the proposed hand by detection index; `loose`: "
                                         "detections that are not part of it")
    suggestions: list[Any]
    timing_ms: Any
    model_version: str | None = Field(None, description="the model version that read it (`GET /v1/models`)")
    confirmation: StoredConfirmation | None = Field(None, description="set once the reading is confirmed")


class RulesetSummary(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    zh: str
    en: str
    options: dict[str, Any] = Field(description="every option and its default")


class RulesetDetails(RulesetSummary):
    fans: dict[str, Any] = Field(description="what the rule set scores, by kind")


class Health(BaseModel):
    status: Literal["ok"]


class ClassifyRequest(Strict):
    box: Box = Field(description="[x1, y1, x2, y2] in pixels of the recognition's `image`")


class NamedTile(BaseModel):
    code: str
    confidence: float
    alternatives: list[Any] = Field(description="the next most likely codes with probabilities")


class TileName(BaseModel):
    code: str
    zh: str
    en: str


class ActiveModel(Strict):
    version: str = Field(description="a model version id from `GET /v1/models` (`base`: the shipped models)")


class HeldOutFigures(BaseModel):
    photos: int = Field(description="confirmed photos held out of the adaptation and read by both models")
    f1: float = Field(description="tile F1 of this version on them")
    exact_photos: int
    base_f1: float = Field(description="tile F1 of the shipped models on the same photos")
    base_exact_photos: int


class ModelVersion(BaseModel):
    id: str
    created_at: str | None
    active: bool
    photos: int = Field(description="confirmed photos it was adapted on (0: the shipped models)")
    held_out: HeldOutFigures | None


class ModelListing(BaseModel):
    active: str
    versions: list[ModelVersion]


class AdaptJob(BaseModel):
    id: str
    created_at: str
    updated_at: str
    state: Literal["queued", "running", "done", "failed"]
    progress: float = Field(description="0 to 1")
    message: str
    version: str | None = Field(description="the new model version, once made")
    outcome: dict[str, Any] | None = Field(description="held-out `figures` and whether the version was `activated`")
