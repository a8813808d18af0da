"""Scoring a web episode: VWA's evaluators run on the final browser state and the answer.

The pieces that read the browser live in ``playbench.games.web.probe``; the comparisons are the pure
functions of ``playbench.evaluators.web``; this module wires them for one task config whose
placeholders
are already replaced by addresses. Each evaluator kind gives one part; the task's score is
their product (web.md).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from playbench.evaluators import web as ev
from playbench.games.browser.actions import action_name, parse_action
from playbench.games.browser.session import PageSession
from playbench.games.web.helpers import HelperEnv
from playbench.games.web.probe import (
    ProbeError,
    fetch_image,
    locate,
    page_at,
    page_images,
    resolve_url,
)

log = logging.getLogger(__name__)


EARLY_STOPS = {"repeated_actions": "the same action too many times in a row",
               "parse_failures": "too many unreadable replies in a row"}
"""End reasons of the loop's budget that VWA turns into a ``stop`` action (web.md)."""


def final_answer(actions: list[str | None], end_reason: str | None = None) -> str:
    """The answer the string evaluators read: that of the last ``stop`` action; after an early
    stop (``end_reason`` in :data:`EARLY_STOPS`) ``Early stop: <why>``, since VWA ends such an
    episode with ``stop [<reason>]`` and evaluates it normally; otherwise ""."""
    for text in reversed(actions):
        if text and action_name(text) == "stop":
            return parse_action(text).text
    if end_reason in EARLY_STOPS:
        return f"Early stop: {EARLY_STOPS[end_reason]}"
    return ""


async def score_task(config: Mapping[str, Any], session: PageSession, answer: str,
                     base_dir: str, judge: ev.Judge | None = None,
                     vqa: ev.Judge | None = None,
                     helpers: HelperEnv | None = None) -> dict[str, float | None]:
    """Every evaluator the task lists, by kind, and their product under ``score``.
    ``helpers`` gives VWA's ``func:`` helpers the sites' addresses and admin accounts (without
    it they have the session's context only, which the page readers need)."""
    spec = config.get("eval") or {}
    if helpers is None:
        helpers = HelperEnv(context=session.context)
    intent = str(config.get("intent", ""))
    parts: dict[str, float | None] = {}
    for kind in spec.get("eval_types") or []:
        try:
            if kind == "string_match":
                parts[kind] = await ev.string_score(spec["reference_answers"], answer, intent,
                                                    judge, str(spec.get("string_note") or ""))
            elif kind == "url_match":
                parts[kind] = ev.url_match(spec["reference_url"], session.page.url,
                                           spec.get("url_note") or ev.DEFAULT_URL_NOTE)
            elif kind == "program_html":
                parts[kind] = await _program_html(spec["program_html"], session, intent, judge,
                                                  helpers)
            elif kind == "page_image_query":
                parts[kind] = await _page_images(spec["page_image_query"], session, base_dir,
                                                 vqa, helpers)
        except ProbeError as err:
            log.warning("task %s: %s could not be evaluated: %s", config.get("task_id"), kind,
                        err)
            parts[kind] = None
    parts["score"] = ev.combine(parts.values())
    return parts


async def _program_html(checks: list[Mapping[str, Any]], session: PageSession, intent: str,
                        judge: ev.Judge | None, helpers: HelperEnv) -> float | None:
    """Every ``program_html`` item, by VWA's rules (:func:`playbench.evaluators.web.page_score`; the
    judge is not told the task, so ``intent`` goes unused here as in VWA). A locator that
    selects nothing (None: a ``lambda:`` script that failed or gave a falsy value) fails the
    whole evaluator, as VWA's loop stops with 0 there."""
    results: list[float | None] = []
    for check in checks:
        url = await resolve_url(str(check["url"]), session, helpers)
        async with page_at(session, url) as page:
            value = await locate(page, check.get("locator", ""), check.get("prep_actions") or (),
                                 helpers, str(session.page.url))
        if value is None:
            return 0.0
        results.append(await _page_check(check["required_contents"], value, judge))
    return ev.combine(results)


async def _page_check(required: Mapping[str, Any], value: Any,
                      judge: ev.Judge | None) -> float | None:
    """One item's check of what its locator selected. VWA compares a helper's number as a
    number under ``required_values`` (a text is read as a whole number first); every other
    value is compared as its text."""
    first = next((k for k in ev.PAGE_CHECKS if k in required), None)
    if first == "required_values" and isinstance(value, (int, float)) and \
            not isinstance(value, bool):
        conditions = [str(c) for c in required["required_values"]]
        return float(all(any(ev.satisfies(value, alt) for alt in c.split(ev.OR))
                         for c in conditions))
    return await ev.page_score(required, value if isinstance(value, str) else str(value),
                               judge)


async def _page_images(queries: list[Mapping[str, Any]], session: PageSession, base_dir: str,
                       vqa: ev.Judge | None, helpers: HelperEnv) -> float | None:
    results: list[float | None] = []
    for q in queries:
        url = await resolve_url(str(q["eval_image_url"]), session, helpers)
        async with page_at(session, url) as page:
            found = await page_images(session, page, q.get("eval_image_class", ""))
        if q.get("eval_fuzzy_image_match"):
            gold = [await fetch_image(session, ref.strip(), base_dir)
                    for ref in str(q["eval_fuzzy_image_match"]).split(ev.OR)]
            threshold = float(q.get("ssim_threshold", ev.DEFAULT_SSIM_THRESHOLD))
            results.append(ev.image_match(found, gold, threshold))
        if q.get("eval_vqa"):
            results.append(await ev.vqa_score(found, q["eval_vqa"], vqa))
    return ev.combine(results)
