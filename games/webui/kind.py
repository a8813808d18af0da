"""MageBench WebUI as a task kind: write a page from a description and target screenshots.

Registered as ``webui`` in the ``playbench.tasks`` entry-point group. Its view is ``code``: a
person gets a code editor beside the target screenshots (and, in Online only, a live render of
their page); a model gets the description, the screenshots and, in Online, its last render,
and answers with fenced code blocks (prompt protocol family ``webui``).

Settings (``docs/reference/web.md``, "MageBench WebUI"): ``webui:global`` - write the page once,
no preview (MageBench's Global; its human baseline saw no render either); ``webui:online`` -
see a render of your page and rewrite it (MageBench's Online, which kept action memory 5 and
observation memory 1). ``default`` is Online. Every submission counts as one action for people
and models alike.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

import numpy as np

from playbench.games.base import Level, RuleOption
from playbench.games.coding.fences import as_answer
from playbench.games.jsonlines import json_list
from playbench.games.kind import Capabilities, EnvServices, Source, SourcePicker
from playbench.games.replay_spec import ReplaySpec
from playbench.games.types import Budget, Setting, Task
from playbench.games.webui.tasks import BUNDLED, GAME, load_levels, task_of

if TYPE_CHECKING:
    from playbench.games.capabilities import DemoMoves, DemoPolicies, LevelFiles, LibraryValues
    from playbench.games.env import Env
    from playbench.games.kind import TaskKind

ONLINE_ROUNDS = 5
"""Submissions in Online: MageBench's Online plots show models revising for a handful of rounds;
five matches its action memory of 5 (``docs/reference/web.md``)."""

GLOBAL = Setting("webui:global", "both", one_step=True, budget=Budget(max_actions=1),
                 description="MageBench Global: write the page once, no preview")
ONLINE = Setting("webui:online", "both", history=True, budget=Budget(max_actions=ONLINE_ROUNDS),
                 description="MageBench Online: see your rendered page, rewrite it "
                             f"(up to {ONLINE_ROUNDS} submissions)")
SETTINGS: dict[str, Setting] = {
    "default": Setting("default", "both", history=True,
                       budget=Budget(max_actions=ONLINE_ROUNDS),
                       description="As webui:online"),
    GLOBAL.name: GLOBAL, ONLINE.name: ONLINE,
}

AES_RULE = RuleOption(
    "aes", ("playbench", "magebench"), "playbench",
    "How AES reads a page: PlayBench's stricter reading of the paper, or as MageBench's "
    "published harness computes it (the default for tasks read from MageBench's own files; "
    "docs/fidelity.md, MageBench WebUI).")
"""The kind's rule option for scoring (``games/webui/aes.py``, module docstring)."""

NEXT_SUBMISSION = "=== next submission ==="
"""The line between submissions in a written plan of several."""

ENV_OPTIONS = ("browser", "webui_targets", "sandbox_limits")


def shows_render(setting: Setting | str) -> bool:
    """Whether a player sees a render of their own page (Online) or never (Global)."""
    name = setting if isinstance(setting, str) else setting.name
    return not name.startswith(GLOBAL.name)


class _Tags(HTMLParser):
    """Counts the elements of a page (start tags, empty ones included)."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.count += 1


def count_elements(html: str) -> int:
    """How many elements ``html`` has, for the Library's size of a target page."""
    tags = _Tags()
    tags.feed(html)
    tags.close()
    return tags.count


class WebUIKind:
    """The ``webui`` task kind (see the module docstring)."""

    name = GAME
    title = "Web pages (MageBench WebUI)"
    help = ("Write index.html (and style.css, script.js) so that the page looks and behaves "
            "like the target screenshots; each submission is rendered and scored by AES.")
    capabilities = Capabilities(
        order=80,
        protocol_family="webui",
        library_help=("<b>Playing it yourself</b> opens it in Play, in the code editor: write "
                      "index.html (and style.css, script.js) beside the target screenshots; in "
                      "Online settings a live render of your page follows your typing, in "
                      "<i>webui:global</i> nothing is rendered before you submit. Each submission "
                      "is one action, scored by Atomic Element Similarity.<br><br><b>A model or "
                      "scripted player</b> opens in Models > Model demo; the scripted solver "
                      "submits the reference page."),
        play_place="the code editor (Play)",
        library_columns=("Page type", "Interactions", "Elements", "Files"),
        source_picker=SourcePicker(
            "Add task folder…", "Add MageBench WebUI tasks", folder=True, files=True,
            file_filter="Task lists (*.json *.jsonl);;All (*)",
            tooltip="A MageBench task folder (index.html, actions.py, tasks.md ...), a folder of "
                    "them (resources/WebUI), or a list file (WebUI_all.json, WebUI_mini.json)"))
    """What the Library's task panel says about writing a page; its columns for a task
    (``library_values``): what kind of page, which scripted interactions the test makes, how
    many elements the target page has, which files the reference uses; MageBench's task folders
    are added as they are published, or its list files; models read and answer this kind with
    the ``webui`` prompt protocol."""
    view = "code"
    replay = ReplaySpec()
    """The state is the last submitted files: a resume submits the recorded answers again,
    re-rendering and re-scoring each (see ``games/webui/env.py``)."""
    undo = False
    rule_options: tuple[RuleOption, ...] = (AES_RULE,)
    """``aes``: ``playbench`` or ``magebench``; a task read from MageBench's files stores
    ``magebench``, so that is its default (``--rule aes=playbench`` for ours)."""
    answers = None
    gym_actions = None

    def settings(self) -> Mapping[str, Setting]:
        return SETTINGS

    def sources(self) -> list[Source]:
        return [Source(BUNDLED, "PlayBench WebUI pages (bundled)", len(load_levels(BUNDLED)))]

    def load(self, source: str, *, fmt: str | None = None) -> list[Level]:
        return load_levels(source)

    def level_formats(self) -> tuple[str, ...]:
        """A task file is a JSON list of task objects (``playbench levels --export``)."""
        return ("json",)

    def dump_levels(self, levels: Sequence[Level], fmt: str | None = None) -> str:
        """``levels`` as a task file :meth:`load` reads back."""
        return json_list(levels, self.name, fmt)

    def make_env(self, task: Task, *, services: EnvServices | None = None,
                 render_options: Mapping[str, Any] | None = None,
                 render: bool = True) -> Env:
        """``render`` False (replays, checks): submissions are still rendered and scored (the
        rewards are their AES) but no screenshots of them are taken."""
        from playbench.games.webui.env import WebUIEnv  # Playwright loads only when played
        extra = (services or EnvServices()).extra
        env: Env = WebUIEnv(browser=extra.get("browser"), limits=extra.get("sandbox_limits"),
                            targets=extra.get("webui_targets"), show_render=render)
        return env

    def input_map(self) -> None:
        """People write code in the code view, not on a board."""
        return None

    def split_plan(self, text: str) -> list[str]:
        """A whole answer is one submission; several are separated by a line
        :data:`NEXT_SUBMISSION` (as :meth:`join_plan` writes them)."""
        parts = [p.strip("\n") for p in text.split(f"\n{NEXT_SUBMISSION}\n")]
        return [p for p in parts if p.strip()]

    def join_plan(self, texts: Sequence[str]) -> str:
        return f"\n{NEXT_SUBMISSION}\n".join(texts)

    def thumbnail(self, level: Level, size: int) -> np.ndarray | None:
        """No picture without rendering the page."""
        return None

    def describe(self, level: Level) -> Mapping[str, Any]:
        task = task_of(level)
        return {"task": level.number, "intent": f"{task.category}: {task.title}",
                "difficulty": f"{len(task.interactions)} interaction(s)", "id": task.id,
                "category": task.category, "title": task.title,
                "interactions": len(task.interactions)}

    def library_values(self, level: Level) -> tuple[str, ...]:
        """One task's values under :attr:`library_columns` (sizes of the target, never its
        code)."""
        task = task_of(level)
        steps = [str(s.get("name") if s.get("do") == "steps" else s.get("do"))
                 for s in task.interactions]
        kinds = ", ".join(dict.fromkeys(steps))
        interactions = f"{len(steps)} ({kinds})" if steps else "none"
        files = ", ".join(ext for name, ext in (("index.html", "html"), ("style.css", "css"),
                                                ("script.js", "js")) if name in task.reference)
        return (task.category or "-", interactions,
                str(count_elements(task.reference["index.html"])), files)

    def check_level(self, level: Level) -> None:
        task_of(level)

    def demo_moves(self, level_text: str, setting: str, steps: Sequence[str | None],
                   policy: str, rng: random.Random) -> list[str] | None:
        """What the offline endpoint (``playbench serve-model``) answers for a WebUI request,
        from the task's level text that the request's state hint carries: ``oracle`` submits
        the reference page, ``noisy`` (``webui:noisy``; plain ``random`` does the same) a
        perturbed reference (:meth:`perturb`); other policies are not offered here (None)."""
        if policy not in ("oracle", "random", "noisy"):
            return None
        try:
            task = task_of(Level(GAME, level_text))
        except Exception:  # noqa: BLE001 - not a WebUI task: an empty answer, read as no code
            return [""]
        answer = as_answer(dict(task.reference))
        return [answer if policy == "oracle" else self.perturb(answer, rng)]

    def demo_policies(self) -> Mapping[str, Any]:
        """The kind's named offline players for ``serve-model --policy webui:NAME``."""
        return {"noisy": NoisyPolicy()}

    def perturb(self, answer: str, rng: random.Random) -> str:
        """A noisy version of a correct answer, for the offline endpoint's noise: one of a
        changed colour, changed sizes, a dropped style sheet, a dropped interactive name, or
        a cut-off answer."""
        k = rng.randrange(5)
        if k == 0:
            return re.sub(r"#[0-9a-fA-F]{6}", lambda m: f"#{rng.randrange(0x1000000):06x}",
                          answer, count=3)
        if k == 1:
            return re.sub(r"(\d+)px", lambda m: f"{int(m.group(1)) * 2}px", answer)
        if k == 2:
            return re.sub(r"```+css\n.*?\n```+", "", answer, flags=re.DOTALL)
        if k == 3:
            return re.sub(r'id="[^"]*"', "", answer, count=2)
        return answer[: max(1, len(answer) // 2)]


class NoisyPolicy:
    """``webui:noisy`` for ``serve-model --policy``: each submission a perturbed reference
    page (the server asks :meth:`WebUIKind.demo_moves` first, with this name)."""

    name = "noisy"
    needs_position = False

    def answer(self, pos: Any, hint: Any, rng: random.Random) -> list[str]:
        return KIND.demo_moves(hint.level, "", [], self.name, rng) or [""]


KIND = WebUIKind()

if TYPE_CHECKING:  # mypy holds the kind to the protocols it means to implement
    _kind: TaskKind = KIND
    _demomoves: DemoMoves = KIND
    _demopolicies: DemoPolicies = KIND
    _libraryvalues: LibraryValues = KIND
    _levelfiles: LevelFiles = KIND

__all__ = ["AES_RULE", "GLOBAL", "KIND", "ONLINE", "ONLINE_ROUNDS", "SETTINGS", "WebUIKind",
           "shows_render"]
