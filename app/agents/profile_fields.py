"""The fields of a model profile as a pydantic model: their types and ranges, defined once.

``ModelProfile`` (``app.agents.profiles``) is built from the profile file, the CLI and the
Settings place; each build is held to :class:`ProfileFields` (strict: ``"0.5"`` is not a
number, ``true`` not a count), and the first field at fault is reported by name with what it
must be, as the profile file's reader and ``playbench models add`` show it. What one field
cannot say alone (azure needs an api_version, a ``local`` endpoint needs its options, the
observation memory fits the action memory) is checked after.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

LOCAL = "local"
"""``base_url`` of a profile whose endpoint PlayBench starts itself."""
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
URL_PATTERN = r"^(local$|https?://[^\s/]+)"
KEY_PATTERN = r"^(keyring|env:[A-Za-z_][A-Za-z0-9_]*)$"


class ProfileFields(BaseModel):
    """Every field of a stored profile (``name`` included), with its type and range."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: Annotated[str, Field(pattern=NAME_PATTERN)]
    base_url: Annotated[str, Field(pattern=URL_PATTERN)]
    model: Annotated[str, Field(pattern=r"\S")]
    api_key: Annotated[str, Field(pattern=KEY_PATTERN)] | None = None
    provider: Literal["openai", "azure"] = "openai"
    api_version: str | None = None
    temperature: float | None = Field(None, ge=0, le=2)
    top_p: float | None = Field(None, ge=0, le=1)
    max_tokens: int | None = Field(None, ge=1)
    frequency_penalty: float | None = Field(None, ge=-2, le=2)
    timeout: float = Field(60.0, ge=0.001)
    max_retries: int = Field(4, ge=0)
    backoff: float = Field(1.0, ge=0)
    backoff_max: float = Field(30.0, ge=0)
    max_concurrency: int = Field(8, ge=1)
    requests_per_minute: float | None = Field(None, ge=0.001)
    tokens_per_minute: float | None = Field(None, ge=1)
    input_price: float = Field(0.0, ge=0)
    output_price: float = Field(0.0, ge=0)
    image_size: int | None = Field(None, ge=16)
    image_detail: Literal["auto", "low", "high"] | None = None
    image_format: Literal["png", "jpeg"] = "png"
    tool_choice: str | None = "auto"
    action_memory: int = Field(5, ge=1)
    observation_memory: int = Field(1, ge=1)
    state_hints: bool = False
    prompt_dir: str | None = None
    label: str = ""
    local: Annotated[Mapping[str, Any], Field(strict=False)] | None = None
    extra_headers: Annotated[Mapping[str, str], Field(strict=False)] = {}


SAYS: dict[str, str] = {
    "model": "must be a non-empty model id",
    "api_key": "must be 'env:VARIABLE' or 'keyring' (the key itself is never stored)",
    "provider": "must be one of openai, azure",
    "image_detail": "must be one of auto, low, high",
    "image_format": "must be png or jpeg",
    "state_hints": "must be true or false",
    "local": "must be an object of serve-model options",
    "extra_headers": "must map header names to strings",
}
"""What a field must be, said whole (numbers and counts are said from their ranges)."""


def _bounds(name: str) -> tuple[Any, Any]:
    """(lowest, highest) a field of :class:`ProfileFields` accepts (None: no bound)."""
    meta = ProfileFields.model_fields[name].metadata
    return (next((m.ge for m in meta if hasattr(m, "ge")), None),
            next((m.le for m in meta if hasattr(m, "le")), None))


def first_problem(values: Mapping[str, Any]) -> tuple[str, str] | None:
    """(field, what is wrong) of the first field of ``values`` that does not fit
    :class:`ProfileFields`, or None when all do. ``base_url`` is the caller's to say (its value
    may hold credentials)."""
    try:
        ProfileFields.model_validate(dict(values))
    except ValidationError as err:
        e = err.errors(include_url=False)[0]
        name = str(e["loc"][0]) if e["loc"] else ""
        value = values.get(name)
        low, high = _bounds(name) if name in ProfileFields.model_fields else (None, None)
        if low is not None and ProfileFields.model_fields[name].annotation in (int, int | None):
            return name, f"must be a whole number >= {low}, got {value!r}"
        if low is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                return name, f"must be a number, got {value!r}"
            return name, f"must be {f'{low}..{high}' if high is not None else f'>= {low}'}, " \
                         f"got {value}"
        if e["type"] == "extra_forbidden":
            return name, "is not a profile field"
        return name, SAYS.get(name, f"is not valid ({e['msg']})")
    return None
