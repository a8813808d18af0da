"""What the kinds layer and the app's harness endpoint agree on.

An outside harness answered by a person (``playbench serve-human``, the app's answer view) or
recorded through ``playbench proxy`` is an app feature (``playbench.app.harness``): the HTTP
endpoint, the request queue and the wire format live there. Its episodes are still recorded
and read back under a task kind, so Compare, Results and exports show them like any other;
that kind lives in the kinds layer and knows nothing of the app. These two protocols are the
whole of what they share:

- :class:`HarnessTasks`: a kind whose tasks are an outside harness's (harness, task id) pairs.
  The endpoint finds it by this capability (:func:`harness_kind`), never by its name, and asks
  it for the task an episode records.
- :class:`HarnessSession`: what the endpoint hands that kind's ``make_env`` (as
  ``EnvServices.extra["session"]``): the live requests of one episode, which make their own
  environment. Nothing else can make one - a harness's requests cannot be rebuilt from a
  database, so such episodes are never resumed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from playbench.games.kind import KindError, Registry, UnknownKind

if TYPE_CHECKING:
    from playbench.games.env import Env
    from playbench.games.types import Setting, Task


@runtime_checkable
class HarnessTasks(Protocol):
    """A kind whose tasks an outside harness's requests name (see the module docstring)."""

    name: str

    def settings(self) -> Mapping[str, Setting]:
        """The kind's settings (an endpoint plays its ``default``)."""

    def task_for(self, harness: str, task_id: str) -> Task:
        """The task an episode of ``(harness, task_id)`` records."""


@runtime_checkable
class HarnessSession(Protocol):
    """The live requests of one harness episode, handed to the kind's ``make_env``."""

    def open_env(self, game: str) -> Env:
        """The environment that plays these requests, recording under the kind ``game``."""


def harness_kind(registry: Registry) -> HarnessTasks:
    """The registered kind that records outside harnesses' episodes (the first one declaring
    :class:`HarnessTasks`). A kind that fails to load is passed over (the registry says why
    when it is asked for by name); ``UnknownKind`` when none is installed."""
    for name in registry.names():
        try:
            kind = registry.get(name)
        except KindError:
            continue
        if isinstance(kind, HarnessTasks):
            return kind
    raise UnknownKind("no installed task kind records outside harnesses (a kind with "
                      "task_for(harness, task_id))")


__all__ = ["HarnessSession", "HarnessTasks", "harness_kind"]
