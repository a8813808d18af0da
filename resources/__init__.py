"""Package data: level packs, prompt templates, web tasks and sites, icons."""

from importlib.resources import files
from pathlib import Path


def path(*parts: str) -> Path:
    """Filesystem path of a bundled resource (installed packages are plain directories)."""
    return Path(str(files(__name__).joinpath(*parts)))
