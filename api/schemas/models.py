"""Model versions, their figures and adaptation jobs (/v1/models)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from fanshot.api.schemas.common import Strict


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
    started_from: str | None = Field(description="the version it was adapted from (the active one when teaching "
                                     "began); None for the shipped models and versions made before it was kept")
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


class AdaptJob(BaseModel):
    id: str
    created_at: str
    updated_at: str
    state: Literal["queued", "running", "done", "failed"]
    progress: float = Field(description="0 to 1")
    message: str
    version: str | None = Field(description="the new model version, once made")
    outcome: dict[str, Any] | None = Field(description="held-out `figures`, whether the version was `activated`, "
                                           "and the version it `started_from` (its figures are `base_*`)")


class ModelListing(BaseModel):
    active: str
    versions: list[ModelVersion]
    confirmed_photos: int = Field(description="the confirmed (saved) photos an adaptation started now learns from")
    new_photos: int = Field(description="confirmed photos beyond those the active version learned from and the "
                            "last adaptation started on; from `photos_suggested` on, the page offers to teach again")
    photos_needed: int = Field(description="the fewest confirmed photos an adaptation starts on (fewer: 422 "
                               "`not_enough_examples`)")
    photos_suggested: int = Field(description="the confirmed photos from which the page offers adapting: with "
                                  "fewer, the adapted version learns the table's tiles weakly")
    adapt_auto: bool = Field(description="the server starts teaching by itself once `new_photos` reaches "
                             "`photos_suggested` (`fanshot serve --adapt auto`)")
    job: AdaptJob | None = Field(description="the adaptation queued or running now, whoever started it")
