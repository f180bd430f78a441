"""What every schema module shares: strict request models, inline schemas, the error answer."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

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


Box = tuple[float, float, float, float]
