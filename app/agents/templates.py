"""The Jinja2 environment prompt protocols render with: bundled templates, overridable by a
user directory (a file at the same relative path there wins)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

import jinja2

import resources


class TemplateProblem(RuntimeError):
    """A prompt template is missing or broken; the message names the file."""


class Templates:
    """Renders ``resources/prompts/<name>`` (or the same path under an override directory)."""

    def __init__(self, overrides: Sequence[Path] = ()) -> None:
        dirs = [str(p) for p in overrides if Path(p).is_dir()]
        dirs.append(str(resources.path("prompts")))
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(dirs), undefined=jinja2.StrictUndefined,
            keep_trailing_newline=False, autoescape=False, auto_reload=False)
        self._cache: dict[str, jinja2.Template] = {}

    def render(self, name: str, **values: Any) -> str:
        template = self._cache.get(name)
        if template is None:
            try:
                template = self.env.get_template(name)
            except jinja2.TemplateNotFound as err:
                raise TemplateProblem(f"prompt template {err.name!r} not found") from None
            except jinja2.TemplateSyntaxError as err:
                raise TemplateProblem(f"prompt template {err.filename or name}, line "
                                      f"{err.lineno}: {err.message}") from None
            self._cache[name] = template
        try:
            return template.render(**values).strip()
        except jinja2.TemplateError as err:
            raise TemplateProblem(f"prompt template {name}: {err}") from None
