"""Outside harnesses answered through PlayBench: an app feature, not a task kind.

A harness that talks to the OpenAI chat API (VisualAgentBench, GameWorld, any OpenAI-client
script) is pointed at an endpoint here; each of its model calls becomes a step of an episode
played through the same loop, budget and recorder as every other episode.

- ``server`` (with ``httpd``, ``guard``, ``checks``, ``report``): the HTTP endpoint on
  127.0.0.1, who may talk to it, and what a body must be (docs/security.md);
- ``wire``: the chat format read and written; ``stored``: how much of a request a step keeps;
- ``queue`` and ``shown``: the requests a person answers, and their text made safe to show;
- ``env``: a harness's requests as an environment; ``hub``: one episode per (harness, task),
  answered by a person (``serve-human``) or forwarded to a real endpoint (``proxy``).

The episodes are recorded under the task kind that declares
``playbench.games.harness.HarnessTasks`` (``playbench.games.external``), so stored episodes
keep their kind name and Compare, Results and exports read them like any other.
"""
