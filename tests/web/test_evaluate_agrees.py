"""Issue 14 item 15: ``playbench web evaluate`` gives the scores an episode gives.

Tasks are played in real Chromium on the offline site (the reference and the wrong
trajectory); then the real CLI is run in a subprocess on the episode's final answer, URL and
page HTML, and must report the same result for each evaluator and the same score.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from playbench.app.core.settings import get_setting
from playbench.app.core.task import Task
from playbench.games.web.scoring import final_answer
from playbench.games.web.sources import load_tasks
from playbench.games.web.tasks import load_text
from playbench.resources.web.site import SiteData

pytestmark = [pytest.mark.browser, pytest.mark.content]

ASYNC = pytest.mark.asyncio(loop_scope="module")
PLAIN_TASKS = "classifieds:0,1,32"
"""Bundled tasks needing no login (string_match, url_match, and both)."""


async def episode(env, task, actions=None):
    """Play ``actions`` (default: the oracle's plan) and return the env's scores with the
    final answer, URL and page HTML, read before the env closes."""
    await env.reset(task, 0)
    assert env.error is None, env.error
    steps = []
    while True:
        if actions is not None:
            text = actions.pop(0) if actions else None
        else:
            plan = env.oracle()
            text = plan[0] if plan else None
        if text is None:
            break
        tr = await env.step(env.parse_action(text))
        steps.append(SimpleNamespace(action=text))
        if tr.terminated:
            break
    scores = await env.score(steps, get_setting("default", "web"))
    answer = final_answer([s.action for s in steps])  # what the episode's scoring read
    html = await env.session.page.content()
    url = env.session.page.url
    await env.close()
    return scores, answer, url, html


def cli_evaluate(spec, answer, url, html_path, site, *extra):
    run = subprocess.run(
        [sys.executable, "-m", "playbench", "web", "evaluate", spec, "--answer", answer,
         "--url", url, "--page-html", str(html_path), "--site", f"CLASSIFIEDS={site.base_url}",
         *extra],
        capture_output=True, text=True, timeout=120,
        env={**os.environ, "PLAYBENCH_CHROMIUM": os.environ.get("PLAYBENCH_CHROMIUM",
                                                               "/usr/bin/chromium")})
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


def same(result, scores):
    parts = {k: v for k, v in scores.items() if k not in ("score", "solved", "steps")}
    assert result["checks"] == parts
    assert result["score"] == scores["score"]


@ASYNC
async def test_evaluate_agrees_with_episodes_on_bundled_tasks(make_env, site, tmp_path):
    seen = set()
    for task in load_tasks(PLAIN_TASKS):
        for plan in ("reference", "wrong"):
            scores, answer, url, html = await episode(make_env(plan=plan), task)
            page = tmp_path / f"{task.level.number}-{plan}.html"
            page.write_text(html)
            result = cli_evaluate(f"classifieds:{task.level.number}", answer, url, page, site)
            same(result, scores)
            seen.add(scores["score"])
    assert seen == {0.0, 1.0}  # both outcomes were compared


@ASYNC
async def test_evaluate_with_a_browser_agrees_on_page_checks(make_env, site, tmp_path):
    """A CSS-locator program_html check on the last page: an episode's score and
    ``web evaluate --browser`` on that page's HTML agree, passing and failing."""
    listing = SiteData().listing(4)
    assert listing is not None
    for expected, title in ((1.0, listing.title), (0.0, listing.title + " (not this one)")):
        obj = {"sites": ["classifieds"], "task_id": 600, "require_login": False,
               "storage_state": None, "start_url": "__CLASSIFIEDS__/index.php?page=item&id=4",
               "intent": "Open the listing", "eval": {
                   "eval_types": ["program_html"], "reference_answers": None,
                   "reference_url": "", "program_html": [{
                       "url": "last", "locator": "func:get_query_text(__page__, 'h1')",
                       "required_contents": {"exact_match": title}}]}}
        path = tmp_path / f"task-{expected}.json"
        path.write_text(json.dumps([obj]))
        task = Task("web", load_text(json.dumps(obj), str(path))[0], {}, str(path))
        scores, answer, url, html = await episode(make_env(), task, ["stop [done]"])
        assert scores["score"] == expected
        page = tmp_path / f"page-{expected}.html"
        page.write_text(html)
        result = cli_evaluate(f"{path}:600", answer, url, page, site, "--browser")
        same(result, scores)
