"""Reading the final state of a browser session for evaluation: page text through a locator,
the images on a page, and images named by URL or path.

VWA's program_html and page_image_query checks (docs/reference/web.md) go to a URL
(or stay on the last page), pick elements and compare what they hold. Pages other than the
last are opened in a new tab of the same context (same login) and closed afterwards, so the
episode's own tabs are left as they were.
"""

from __future__ import annotations

import base64
import io
import re
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image

from playbench.games.browser.session import PageSession
from playbench.games.web import expr
from playbench.games.web.helpers import HELPERS, HelperEnv, HelperError, caller

GET_QUERY_TEXT = re.compile(
    r"""^func:(get_query_text(?:_lowercase)?)\(\s*__page__\s*,\s*(['"])(.*)\2\s*\)$""", re.DOTALL)
TEXTS_JS = "(sel) => [...document.querySelectorAll(sel)].map((e) => e.innerText ?? e.textContent)"
IMAGES_JS = """(sel) => {
  const picked = sel ? [...document.querySelectorAll(sel)] : [...document.images];
  const imgs = picked.flatMap((e) => e.tagName === 'IMG' ? [e] : [...e.querySelectorAll('img')]);
  return imgs.map((i) => i.currentSrc || i.src).filter((s) => s);
}"""


class ProbeError(RuntimeError):
    """The evaluation could not read the page (it did not load, a selector was invalid)."""


@asynccontextmanager
async def page_at(session: PageSession, url: str) -> AsyncIterator[Any]:
    """The page to evaluate: the active tab for ``last``, else a new tab at ``url``."""
    if url == "last":
        yield session.page
        return
    page = await session.context.new_page()
    try:
        try:
            await page.goto(url, wait_until="load")
        except Exception as err:
            raise ProbeError(
                f"{url} did not load for evaluation: {str(err).splitlines()[0]}") from err
        yield page
    finally:
        if page in session.pages:
            session.pages.remove(page)
        await page.close()


async def locate_text(page: Any, locator: str, prep_actions: Sequence[str] = ()) -> str:
    """The text a CSS, ``document.`` or ``get_query_text`` locator selects (see
    :func:`locate`, which also runs VWA's other ``func:`` helpers and ``lambda:`` scripts)."""
    value = await locate(page, locator, prep_actions)
    return "" if value is None else value if isinstance(value, str) else str(value)


async def locate(page: Any, locator: str, prep_actions: Sequence[str] = (),
                 helpers: HelperEnv | None = None, last_url: str = "") -> Any:
    """What a VWA locator selects: the page's HTML for an empty locator, the value of a
    ``document.`` expression, ``func:get_query_text(__page__, "sel")`` (``_lowercase``), the
    value of any other ``func:`` helper call (:mod:`playbench.games.web.expr`,
    :mod:`playbench.games.web.helpers`; a text, a number or a record), the value of a
    ``lambda:`` script run in the page - None when it fails or gives nothing, which fails the
    whole check as in VWA - or the text of every element a CSS selector matches."""
    for js in prep_actions:
        await page.evaluate(f"() => {{ {js} }}")
    loc = locator.strip()
    if locator.startswith("lambda:"):
        return await _lambda(page, locator)
    try:
        if not loc:
            return str(await page.content())
        if loc.startswith("document.") or loc.startswith("[...document."):
            return _text(await page.evaluate(f"() => {loc}"))
        m = GET_QUERY_TEXT.match(loc)
        if m:
            texts = await page.evaluate(TEXTS_JS, m.group(3))
            joined = "\n".join(str(t) for t in texts)
            return joined.lower() if m.group(1).endswith("_lowercase") else joined
        if loc.startswith("func:"):
            tree = expr.parse(loc[len("func:"):], HELPERS)
            return await expr.evaluate(tree, caller(helpers or HelperEnv()), page, last_url)
        return "\n".join(str(t) for t in await page.evaluate(TEXTS_JS, loc))
    except Exception as err:
        raise ProbeError(f"locator {locator!r} failed: {str(err).splitlines()[0]}") from err


async def _lambda(page: Any, locator: str) -> Any:
    """A ``lambda:`` locator: VWA hands the script to the page (``page.evaluate``); an error
    or a falsy value selects nothing (None)."""
    try:
        value = await page.evaluate(expr.lambda_script(locator))
    except Exception:
        return None
    return value or None


async def resolve_url(url: str, session: PageSession, helpers: HelperEnv | None) -> str:
    """A check's page address: a ``func:`` call (``__last_url__`` = the final page's address)
    is evaluated, anything else is returned as written (``last`` included)."""
    if not url.startswith("func"):
        return url
    try:
        tree = expr.parse(url.split("func:", 1)[-1], HELPERS)
        value = await expr.evaluate(tree, caller(helpers or HelperEnv()), session.page,
                                    str(session.page.url))
    except (expr.ExpressionError, HelperError) as err:
        raise ProbeError(f"url {url!r} failed: {err}") from err
    return str(value)


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, list):
        return "\n".join(_text(v) for v in value)
    return str(value)


async def page_images(session: PageSession, page: Any, selector: str) -> list[np.ndarray]:
    """The pictures shown by the ``img`` elements a CSS selector picks ("" = every image)."""
    try:
        urls = await page.evaluate(IMAGES_JS, selector.strip())
    except Exception as err:
        raise ProbeError(
            f"image selector {selector!r} failed: {str(err).splitlines()[0]}") from err
    return [await fetch_image(session, u) for u in urls]


async def fetch_image(session: PageSession, ref: str, base_dir: str = ".") -> np.ndarray:
    """An RGB image from a URL (fetched with the episode's cookies), a data URL or a file."""
    if ref.startswith("data:"):
        data = base64.b64decode(ref.split(",", 1)[1])
    elif "://" in ref:
        resp = await session.context.request.get(ref)
        if not resp.ok:
            raise ProbeError(f"image {ref} answered HTTP {resp.status}")
        data = await resp.body()
    else:
        path = Path(ref) if Path(ref).is_absolute() else Path(base_dir) / ref
        try:
            data = path.read_bytes()
        except OSError as err:
            raise ProbeError(f"image file {path}: {err.strerror or err}") from err
    try:
        with Image.open(io.BytesIO(data)) as img:
            return np.asarray(img.convert("RGB"))
    except Exception as err:
        raise ProbeError(f"{ref[:80]} is not an image ({err})") from err
