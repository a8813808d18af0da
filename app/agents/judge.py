"""A judge model for fuzzy_match and eval_vqa, reached through a model profile.

The evaluators (``playbench.evaluators.web``) only see an async ``judge(question, images) ->
answer``;
:class:`ModelJudge` is one, sending each question (with images as PNG data URLs) through the
agents' :class:`~playbench.app.agents.client.ModelClient`, so retries, rate limits and key handling
are the same as for model players. :func:`env_services` hands environments what they cannot build
without the app: judges made from profile names, and the config directory.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.app.agents.images import png_bytes
from playbench.app.agents.profiles import ModelProfile, ProfileStore, config_dir
from playbench.games.kind import EnvServices

if TYPE_CHECKING:
    from playbench.app.agents.client import ModelClient


class JudgeError(RuntimeError):
    """The judge answered nothing usable."""


def data_url(image: np.ndarray) -> str:
    return "data:image/png;base64," + base64.b64encode(png_bytes(image)).decode()


class ModelJudge:
    """Asks one model profile; answers are short (a verdict or a colour)."""

    def __init__(self, profile: ModelProfile, client: ModelClient | None = None) -> None:
        if profile.is_local:
            raise JudgeError(f"model profile {profile.name!r} is PlayBench's stand-in "
                             "endpoint, not a model that can judge")
        self.profile = profile
        if client is None:
            # the OpenAI client's imports (about 1 s) are paid only when a judge is made, not
            # by every run that hands environments the means to make one
            from playbench.app.agents.client import ModelClient
            from playbench.app.agents.keys import resolve_key
            client = ModelClient(profile, resolve_key(profile))
        self.client = client

    @classmethod
    def named(cls, name: str, store: ProfileStore | None = None) -> ModelJudge:
        return cls((store or ProfileStore()).get(name))

    async def __call__(self, question: str, images: Sequence[np.ndarray] = ()) -> str:
        from playbench.app.agents.protocols.base import Prompt
        content: list[dict] = [{"type": "text", "text": question}]
        content += [{"type": "image_url", "image_url": {"url": data_url(img)}} for img in images]
        prompt = Prompt([{"role": "user", "content": content}],
                        params={"temperature": 0.0, "max_tokens": 64})
        reply = await self.client.complete(prompt)
        text = reply.reply.content.strip()
        if not text:
            raise JudgeError(f"judge {self.profile.name!r} gave an empty answer")
        return text

    async def aclose(self) -> None:
        await self.client.aclose()


def env_services(extra: Mapping[str, Any] | None = None,
                 environ: Mapping[str, str] | None = None) -> EnvServices:
    """The app's services for an environment: judges by profile name (:meth:`ModelJudge.named`),
    the config directory, and ``extra`` (a shared browser, site overrides)."""
    return EnvServices(extra=dict(extra or {}), judge_named=ModelJudge.named,
                       config_dir=config_dir(environ))


__all__ = ["ModelJudge", "JudgeError", "data_url", "env_services"]
