"""Board and browser environments. Nothing here knows about players, the database or Qt."""

import os

# pygame prints a banner on import unless told not to; boards are imported by CLIs and tests.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
