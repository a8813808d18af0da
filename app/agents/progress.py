"""A progress bar for runs: episodes done, steps, invalid steps, errors, tokens and cost so far.

Used as an episode listener (``Stepped`` and ``Ended`` events), so it works for every kind of
player; for model players the tokens and cost are the ones recorded on the steps.
"""

from __future__ import annotations

import sys
from typing import Any

from tqdm import tqdm

from playbench.app.core.events import Ended, EpisodeEvent, Stepped


class RunProgress:
    def __init__(self, total: int, desc: str = "", disable: bool = False, file: Any = None
                 ) -> None:
        self.bar = tqdm(total=total, unit="ep", desc=desc, disable=disable,
                        file=file or sys.stderr, dynamic_ncols=True)
        self.steps = self.invalid = self.errors = self.tokens = 0
        self.cost = 0.0

    def __call__(self, event: EpisodeEvent) -> None:
        if isinstance(event, Stepped):
            r = event.record
            self.steps += 1
            self.invalid += 0 if r.valid else 1
            self.tokens += r.prompt_tokens + r.completion_tokens
            self.cost += r.cost
        elif isinstance(event, Ended):
            self.errors += event.result.status == "error"
            self.bar.update(1)
        else:
            return
        self.bar.set_postfix_str(
            f"steps={self.steps} invalid={self.invalid} errors={self.errors} "
            f"tokens={self.tokens} cost=${self.cost:.4f}", refresh=False)

    def close(self) -> None:
        self.bar.close()
