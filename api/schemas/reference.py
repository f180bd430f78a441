"""What the server lists and reports on itself: rule sets, tile names, health and readiness."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class RulesetNames(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    zh: str
    en: str
    options: dict[str, Any] = Field(description="every option and its default")


class RulesetSummary(RulesetNames):
    ghosts_in_play: bool = Field(description="a hand may hold ghost tiles 鬼牌: the `ghosts` option names a mode, "
                                             "or the rule set scores them (docs/RULES.md); the page shows its ghost "
                                             "fields by it")


class RulesetDetails(RulesetNames):
    fans: dict[str, Any] = Field(description="what the rule set scores, by kind")


class Health(BaseModel):
    status: Literal["ok"]


class Ready(BaseModel):
    status: Literal["ready"]
    model_version: str = Field(description="the recognition models in use (a digest of the models and settings)")


class TileName(BaseModel):
    code: str
    zh: str
    en: str
