"""A request's JSON body parsed as a model, without the web framework (``check_work`` runs it in the
check processes, which import nothing of FastAPI; ``http.json_body`` turns a refusal into FastAPI's)."""

from __future__ import annotations

import email.message
import json
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


class BodyRefused(ValueError):
    """A body that is not the model: ``errors`` as FastAPI lists a body parameter's (each ``loc``
    starting with ``body``), or ``unparsable`` where no JSON parser can read it (FastAPI answers 400)."""

    def __init__(self, errors: list[dict[str, Any]], *, unparsable: bool = False) -> None:
        super().__init__(errors)
        self.errors = errors
        self.unparsable = unparsable


def parse_json_body(model: type[M], body: bytes, content_type: str | None) -> M:
    """``body`` as ``model``, parsed from its bytes in one step (pydantic's own JSON parser, as
    ``Sheet.from_json`` reads a file); refused (``BodyRefused``) as FastAPI refuses a body parameter: a
    missing body as missing, a body not declared JSON as invalid."""
    if not body:
        raise BodyRefused([{"type": "missing", "loc": ("body",), "msg": "Field required", "input": None}])
    try:
        if not _is_json(content_type):
            return model.model_validate(body)  # refused: bytes are not the model (FastAPI's strict content type)
        try:
            return model.model_validate_json(body)
        except ValidationError as error:
            if not any(item["type"] == "json_invalid" for item in error.errors(include_url=False)):
                raise
        # Not JSON to pydantic's parser (a lone surrogate, nesting past its limit): Python's parser
        # decides, so the answer is the one FastAPI gives (400 where it cannot parse the body).
        try:
            parsed = json.loads(body)
        except json.JSONDecodeError as error:
            raise BodyRefused(
                [{"type": "json_invalid", "loc": ("body", error.pos), "msg": "JSON decode error", "input": {}}]
            ) from None
        except Exception:
            raise BodyRefused([], unparsable=True) from None
        return model.model_validate(parsed)
    except ValidationError as error:
        raise BodyRefused([{**item, "loc": ("body", *item["loc"])} for item in error.errors(include_url=False)]) from None


def _is_json(content_type: str | None) -> bool:
    if not content_type:
        return False
    if content_type == "application/json":  # what every phone sends: the parser's answer without it
        return True
    message = email.message.Message()
    message["content-type"] = content_type
    subtype = message.get_content_subtype()
    return message.get_content_maintype() == "application" and (subtype == "json" or subtype.endswith("+json"))
