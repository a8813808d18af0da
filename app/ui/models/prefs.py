"""Desktop preferences: annotator pseudonym, database location, rule options, last choices.

Stored as JSON (``ui.json``) in PlayBench's config directory - the one model profiles use
(``$PLAYBENCH_CONFIG_DIR`` overrides it) - in a file of its own. Writes are atomic (temporary
file, then rename), and a file that cannot be read is reported, never silently replaced.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from playbench.app.agents.profiles import config_dir

FILE_NAME = "ui.json"
_PSEUDONYM = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{1,31}$")


class PrefsError(ValueError):
    """The preferences file cannot be read; the message names the file and the cause."""


def check_pseudonym(name: str) -> str | None:
    """Why ``name`` cannot be an annotator id, or None when it can."""
    if not _PSEUDONYM.match(name):
        return ("use 2-32 letters, digits, '.', '_' or '-', starting with a letter or digit "
                "(a pseudonym such as ann-07, not your real name)")
    return None


def suggest_pseudonym() -> str:
    """A fresh random pseudonym, e.g. ``ann-4f2a``."""
    return f"ann-{secrets.token_hex(2)}"


@dataclass(frozen=True)
class Prefs:
    annotator: str | None = None
    db_url: str | None = None
    """None: ``$PLAYBENCH_DB`` or the default file in the user data directory."""
    rules: dict[str, dict[str, str]] = field(default_factory=dict)
    """Rule options per game, used when a level is started."""
    level_files: dict[str, list[str]] = field(default_factory=dict)
    """Level files a person added to the library, per game."""
    last_game: str | None = None
    last_player: str = "human"
    last_setting: dict[str, str] = field(default_factory=dict)
    demo_delay: float = 0.5
    """Seconds between steps in the model demo."""
    window: dict[str, Any] = field(default_factory=dict)
    """The main window's last geometry (x, y, w, h, maximized) and its splitters' states
    (base64 text by splitter name), restored inside the current screen at start."""

    def with_(self, **changes: Any) -> Prefs:
        return replace(self, **changes)


class PrefsStore:
    """The preferences file in a config directory."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else config_dir()
        self.path = self.directory / FILE_NAME

    def load(self) -> Prefs:
        """The stored preferences (defaults when there is no file yet)."""
        if not self.path.exists():
            return Prefs()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as err:
            raise PrefsError(f"{self.path}: cannot read the preferences ({err})") from None
        except ValueError as err:
            raise PrefsError(f"{self.path}: not valid JSON ({err})") from None
        if not isinstance(data, dict):
            raise PrefsError(f"{self.path}: expected a JSON object")
        known = {f.name for f in fields(Prefs)}
        values = {k: v for k, v in data.items() if k in known}
        try:
            prefs = Prefs(**values)
        except TypeError as err:
            raise PrefsError(f"{self.path}: {err}") from None
        if prefs.annotator is not None and check_pseudonym(str(prefs.annotator)):
            prefs = prefs.with_(annotator=None)
        return prefs

    def save(self, prefs: Prefs) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(prefs), indent=2, sort_keys=True) + "\n",
                       encoding="utf-8")
        tmp.replace(self.path)
