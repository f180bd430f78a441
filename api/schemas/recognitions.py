"""Recognitions, their confirmations and the naming of one box (POST /v1/recognitions and what follows it)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    model_serializer,
    model_validator,
)

from fanshot.api.schemas.common import Box, Strict, TileCode, nullable
from fanshot.api.schemas.scoring import Context, Hand, Options


class ImageSize(BaseModel):
    width: int
    height: int


class DetectedTile(BaseModel):
    model_config = ConfigDict(extra="allow")
    box: list[float] = Field(description="[x1, y1, x2, y2] in pixels of `image`")
    code: str
    confidence: float
    alternatives: list[Any] = Field(description="the next most likely codes with probabilities")


class LabelledTile(BaseModel):
    # Other keys are ignored: a client may echo the recognition's tiles (confidence, alternatives) back.
    code: TileCode
    box: Box | None = Field(description="[x1, y1, x2, y2] in pixels of the recognition's `image` (a label); null: a "
                            "tile of the hand that the photo does not show (added by hand), placed but no label")
    detection: int | None = Field(None, ge=0, description="the recognition's detection this tile is, by index in "
                                  "its `tiles` (the code perhaps corrected); absent for a tile added by hand")

    @model_serializer(mode="wrap")
    def keep_null_box(self, handler: SerializerFunctionWrapHandler) -> Any:
        # a null box says "not in the photo": it stays when other nulls are left out (exclude_none)
        return {"box": None, **handler(self)}


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
    winning: int | None = Field(None, description="the winning tile, by index: one of `concealed`")

    def indices(self) -> list[int]:
        return self.concealed + self.flowers + self.loose + [i for meld in self.melds for i in meld.tiles]


class Confirmation(BaseModel):
    """The corrected reading of a photo: each tile in it with its box (the training labels, face-down tiles as
    `back`), and the hand's tiles the photo does not show with none; where each tile sits in the hand, by index
    (`hand_tiles`: the one source of the hand, which the server derives from it), or, from a client that does not
    place tiles, the hand in notation; and how the hand was won, so the page can restore its work. A hand may be a
    draft (no winning tile yet, loose tiles left out). The hand, rule set, options and context are checked by the
    scorer's parser, like a score request's."""

    tiles: list[LabelledTile] = Field(max_length=200)
    hand: Annotated[Any, WithJsonSchema(nullable(Hand))] = Field(
        None, description="a score request's `hand`, perhaps unfinished; with `hand_tiles`, derived from them (a "
        "hand sent as well must be the same)")
    hand_tiles: HandTiles | None = Field(None, description="the hand's tiles by index into `tiles`")
    ruleset: str | None = None
    options: Annotated[Any, WithJsonSchema(nullable(Options))] = None
    context: Annotated[Any, WithJsonSchema(nullable(Context))] = Field(
        None, description="the score request's context the player chose")

    @model_validator(mode="after")
    def placed_tiles_exist_once(self) -> Confirmation:
        placed = self.hand_tiles.indices() if self.hand_tiles else []
        if any(not 0 <= index < len(self.tiles) for index in placed) or len(set(placed)) < len(placed):
            raise ValueError("hand_tiles must name each of the tiles at most once, by its index in tiles")
        if self.hand_tiles and self.hand_tiles.winning not in (None, *self.hand_tiles.concealed):
            raise ValueError("hand_tiles.winning must be the index of one of hand_tiles.concealed")
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


class ClassifyRequest(Strict):
    box: Box = Field(description="[x1, y1, x2, y2] in pixels of the recognition's `image`")


class NamedTile(BaseModel):
    code: str
    confidence: float
    alternatives: list[Any] = Field(description="the next most likely codes with probabilities")
