"""The HTTP boundary's types (docs/API.md). A score request, and the hand of a confirmation, are checked by the
scorer's parser alone, so the API refuses exactly what `fanshot score --json` refuses; their models here only
document them. Other request bodies are checked by their models; responses are described by theirs."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    WithJsonSchema,
    create_model,
    model_serializer,
    model_validator,
)

from fanshot.scoring.hand import MAX_STAKE, MELD_KINDS, SPECIAL_WINS, WIN_TYPES
from fanshot.scoring.rules import CAP_RELATIVE, MAX_FAN, OPTIONS
from fanshot.scoring.tiles import DETECTOR_CLASSES

TileCode = Literal[DETECTOR_CLASSES]  # type: ignore[valid-type]  # the 43 detector classes, in order
Number = int | float


class Strict(BaseModel):
    # A misspelt key must not be silently ignored: it would score a different hand than the user meant.
    model_config = ConfigDict(extra="forbid")


def inline_schema(model: type[BaseModel]) -> dict[str, Any]:
    """`model`'s JSON schema with its definitions written in place: the schema of a field that something other
    than pydantic validates (WithJsonSchema), where no `$ref` into the model's own `$defs` would resolve."""
    schema = model.model_json_schema()
    definitions = schema.pop("$defs", {})

    def resolve(node: Any) -> Any:
        if isinstance(node, dict):
            return resolve(definitions[node["$ref"].rsplit("/", 1)[1]]) if "$ref" in node else \
                {key: resolve(value) for key, value in node.items()}
        return [resolve(item) for item in node] if isinstance(node, list) else node

    return resolve(schema)


def nullable(model: type[BaseModel]) -> dict[str, Any]:
    return {"anyOf": [inline_schema(model), {"type": "null"}]}


class ErrorItem(BaseModel):
    code: str
    message: str
    detail: dict[str, Any] | None = Field(None, description="where the request is at fault, for a client to word "
                                          "the refusal: `field`, `reason` and the values a fix needs (docs/API.md)")


class ErrorResponse(BaseModel):
    errors: list[ErrorItem]


# The score request is checked by one validator, the scorer's parser (scoring.hand, scoring.rules): these models
# only describe it for the OpenAPI schema, built from the parser's own constants, and never validate a request.

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


class Ready(BaseModel):
    status: Literal["ready"]
    model_version: str = Field(description="the recognition models in use (a digest of their files)")


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
    kind: Literal["deep", "head"] = Field(description="deep: the localiser fine-tuned and the classifier's last "
                                          "layer refitted (the train extra was installed); head: last layers "
                                          "refitted only, without torch")


class ModelVersion(BaseModel):
    id: str
    created_at: str | None
    active: bool
    photos: int = Field(description="confirmed photos it was adapted on (0: the shipped models)")
    held_out: HeldOutFigures | None
    figures: str = Field(description="the URL of its per-class figures (GET /v1/models/{id}/figures)")


class ClassFigures(BaseModel):
    tiles: int = Field(description="true tiles of this code")
    found: int = Field(description="tiles read as this code")
    precision: float
    recall: float
    f1: float


class Confusion(BaseModel):
    true: list[str] = Field(description="the rows: the 43 codes, then `not a tile` (a tile read where none is)")
    read: list[str] = Field(description="the columns: the 43 codes, then `missed` (a true tile read as nothing)")
    counts: list[list[int]]


class SetFigures(BaseModel):
    photos: int
    precision: float
    recall: float
    f1: float
    exact_photos: int
    classes: dict[str, ClassFigures] | None = Field(description="per code, backs included; null where the "
                                                    "adaptation record predates them")
    confusion: Confusion | None = Field(description="tiles paired by box (null where there are no boxes)")


class ModelFigures(BaseModel):
    version: str
    of: str = Field(description="what the figures were measured on, in words")
    command: str | None = Field(description="the command that measured them (null: the adaptation did)")
    sets: dict[str, SetFigures]


class ModelListing(BaseModel):
    active: str
    versions: list[ModelVersion]
    confirmed_photos: int = Field(description="the confirmed (saved) photos an adaptation started now learns from")
    photos_needed: int = Field(description="the fewest confirmed photos an adaptation starts on (fewer: 422 "
                               "`not_enough_examples`)")
    photos_suggested: int = Field(description="the confirmed photos from which the page offers adapting: with "
                                  "fewer, the adapted version learns the table's tiles weakly")


class AdaptJob(BaseModel):
    id: str
    created_at: str
    updated_at: str
    state: Literal["queued", "running", "done", "failed"]
    progress: float = Field(description="0 to 1")
    message: str
    version: str | None = Field(description="the new model version, once made")
    outcome: dict[str, Any] | None = Field(description="held-out `figures` and whether the version was `activated`")
