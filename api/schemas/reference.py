"""What the server lists and reports on itself: rule sets, tile names, health and readiness."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class RulesetSummary(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    zh: str
    zh_hant: str = Field(description="the name in Traditional characters, as Cantonese players say it")
    en: str
    options: dict[str, Any] = Field(description="every option and its default")


class RulesetDetails(RulesetSummary):
    fans: dict[str, Any] = Field(description="what the rule set scores, by kind")


class Health(BaseModel):
    status: Literal["ok"]


class Ready(BaseModel):
    status: Literal["ready"]
    model_version: str = Field(description="the recognition models in use (a digest of their files)")


class TileName(BaseModel):
    code: str
    zh: str
    zh_hant: str = Field(description="the name in Traditional characters")
    en: str
