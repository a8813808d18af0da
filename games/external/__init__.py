"""The task kind outside harnesses' episodes are recorded under (``external``).

The harness endpoint itself - the request queue a person answers, the chat wire format, the
HTTP server and its guard and limits, the environment a harness's requests make - is an app
feature, ``playbench.app.harness``. Only :data:`KIND` (``kind``) is here, registered as
``external = "playbench.games.external:KIND"``, so that databases holding such episodes load
and Compare, Results and exports read them as before.
"""

from playbench.games.external.kind import KIND

__all__ = ["KIND"]
