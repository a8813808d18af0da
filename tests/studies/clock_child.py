"""A study task played in its own process by an annotator who never answers: the SIGKILL
test's victim. Prints ``deciding`` (flushed) once the loop waits for the first decision."""

from __future__ import annotations

import asyncio
import sys

from playbench.app.core.events import Deciding
from playbench.app.players.human import HumanPlayer
from playbench.app.studies import StudyQueue
from playbench.db.engine import open_database
from playbench.db.store import Store


async def main(url: str, annotator: str) -> None:
    store = Store(open_database(url))
    queue = StudyQueue(store, "pilot", annotator)

    def tell(event: object) -> None:
        if isinstance(event, Deciding):
            print("deciding", event.episode_id, flush=True)

    await queue.play(queue.next(), HumanPlayer(annotator), listeners=[tell])


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
