"""VWA's evaluation helpers, in PlayBench's own code, reading the live site as VWA's do.

VWA's task files call these from ``func:`` texts (read by :mod:`playbench.games.web.expr`);
VWA implements them in ``evaluation_harness/helper_functions.py``. Each one here reads the same
thing VWA's reads, through the episode's browser session:

- page readers (the page is ``__page__``): scripts run in the page and pick the same elements
  VWA's scripts pick - Magento's product detail table (``#productDetails_detailBullets_sections1``),
  its final-price box, the reviews tab title, the rating box, the order page's items table
  (``#my-orders-table``), Postmill's comment tree under ``#main`` (``.comment`` with
  ``data-level``, ``.fg-inherit`` user, ``.vote__net-score``, ``.comment__content``, the
  header's ``time``), GitLab's members table. Like VWA's they answer "" / 0 / ``{}`` when the
  page lacks what they read, so the check fails rather than going unscored.
- Magento REST readers (no page): ``shopping_get_latest_order_url`` and the
  ``shopping_get_sku_*`` helpers log in to the shopping site's admin REST API
  (``/rest/default/V1/integration/admin/token``) with the admin account of the web settings
  (``admin_accounts.SHOPPING``; VWA keeps it in ``browser_env/env_config.py``) and read
  ``/rest/V1/orders`` (newest by ``created_at``) or ``/rest/V1/products/<sku>/reviews`` (the
  last review) as VWA does; the requests go through the episode's browser context, so only the
  task's hosts are reachable.
- ``reddit_get_post_url``: a pure function of the final URL (``/f/<forum>/<id>/``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from urllib.parse import quote, urlparse

from playbench.games.web.expr import PAGE_NAME


class HelperError(RuntimeError):
    """A helper could not read what it needs (no site address, no admin account, the REST
    API refused); the check it serves is then not scored."""


@dataclass(frozen=True)
class AdminAccount:
    """A site's admin login for its REST API; the password stays out of ``repr``."""

    username: str
    password: str = field(repr=False)


@dataclass
class HelperEnv:
    """What the helpers may use besides the page: the browser context (for REST calls), the
    sites' addresses by placeholder name and the admin accounts by site name."""

    context: Any = None
    sites: Mapping[str, str] = field(default_factory=dict)
    admins: Mapping[str, AdminAccount] = field(default_factory=dict)
    _tokens: dict[str, str] = field(default_factory=dict, repr=False)

    def site(self, name: str) -> str:
        base = self.sites.get(name)
        if not base:
            raise HelperError(f"no address for __{name}__")
        return base.rstrip("/")


Helper = Callable[..., Awaitable[Any]]


@dataclass(frozen=True)
class HelperSpec:
    """One helper: its function, whether its first argument is the page, and the site whose
    admin account it needs (None: none)."""

    fn: Helper
    page: bool = True
    admin: str | None = None


# -- page readers -------------------------------------------------------------------------

TEXT_JS = """(sel) => { try { return document.querySelector(sel).textContent; }
catch (e) { return ''; } }"""
ATTRIBUTES_JS = """(attribute) => {
  try {
    const terms = attribute.toLowerCase().split(' |or| ');
    const rows = [...document.querySelector(
      '#productDetails_detailBullets_sections1 > tbody').children];
    return rows.filter((r) => terms.some((t) => r.children[0].outerText.toLowerCase()
                                                 .includes(t)))
               .map((r) => r.children[1].outerText).join(', ');
  } catch (e) { return ''; }
}"""
PRICE_JS = """() => {
  try {
    const el = document.querySelector('#maincontent > div.columns > div > ' +
      'div.product-info-main > div.product-info-price > div.price-box.price-final_price ' +
      '> span > span');
    const v = parseFloat(el.outerText.substr(1));
    return v ? v : 0;
  } catch (e) { return 0; }
}"""
NUM_REVIEWS_JS = """() => {
  try {
    const v = parseInt(document.querySelector('#tab-label-reviews-title').outerText
                       .split(' ')[1]);
    return v ? v : 0;
  } catch (e) { return 0; }
}"""
RATING_JS = """() => {
  try {
    const v = parseFloat(document.querySelector('.rating-result').title.replace('%', ''));
    return v ? v : 0;
  } catch (e) { return 0; }
}"""
ORDER_JS = """() => {
  try {
    return [...document.querySelector('#my-orders-table').getElementsByTagName('tbody')]
      .map((body) => {
        const item = {};
        for (const cell of body.getElementsByTagName('td')) {
          const key = cell.className.split(' ')[1];
          item[key] = cell.outerText;
          const dl = key === 'name' ? cell.querySelector('dl') : null;
          if (dl) {
            const opts = {};
            const kids = [...dl.children];
            for (let i = 0; i + 1 < kids.length; i += 2) {
              opts[kids[i].outerText] = kids[i + 1].outerText;
            }
            item.options = opts;
          }
        }
        return item;
      });
  } catch (e) { return []; }
}"""
TREE_JS = """() => {
  const read = (node, level) => {
    const when = new Date(node.querySelector('.comment__main > header > h1 > span > time')
                          .dateTime);
    const tree = {username: node.querySelector('.fg-inherit').outerText,
                  net_score: parseInt(node.querySelector('.vote__net-score').outerText),
                  content: node.querySelector('.comment__content').outerText,
                  time: when.toISOString(), children: []};
    node.querySelectorAll('.comment').forEach((c) => {
      if (parseInt(c.getAttribute('data-level')) === level + 1) {
        tree.children.push(read(c, level + 1));
      }
    });
    return tree;
  };
  try { return read(document.querySelector('#main'), 0); } catch (e) { return {}; }
}"""
MEMBER_ROLE_JS = """(account) => {
  try {
    const names = [...document.querySelectorAll(
      "td[data-label='Account'] span.gl-avatar-labeled-sublabel")];
    const i = names.findIndex((e) => e.outerText === '@' + account);
    return document.querySelectorAll('td.col-max-role span')[i].outerText;
  } catch (e) { return ''; }
}"""


async def _js(page: Any, script: str, *args: Any) -> Any:
    """A page script's value; a page that cannot run it reads as nothing (VWA's helpers
    answer their empty value then too)."""
    try:
        return await page.evaluate(script, *args)
    except Exception:
        return None


async def get_query_text(env: HelperEnv, page: Any, selector: str) -> str:
    """The text content of the first element ``selector`` matches ("" if none)."""
    return str(await _js(page, TEXT_JS, selector) or "")


async def get_query_text_lowercase(env: HelperEnv, page: Any, selector: str) -> str:
    return (await get_query_text(env, page, selector)).lower()


async def shopping_get_product_attributes(env: HelperEnv, page: Any, attribute: str) -> str:
    """The values of the product detail rows whose name holds ``attribute`` (alternatives
    joined by `` |OR| ``), joined by ", "."""
    return str(await _js(page, ATTRIBUTES_JS, attribute) or "")


async def shopping_get_product_price(env: HelperEnv, page: Any) -> float | int:
    return _number(await _js(page, PRICE_JS))


async def shopping_get_num_reviews(env: HelperEnv, page: Any) -> float | int:
    return _number(await _js(page, NUM_REVIEWS_JS))


async def shopping_get_rating_as_percentage(env: HelperEnv, page: Any) -> float | int:
    return _number(await _js(page, RATING_JS))


def _number(value: Any) -> float | int:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


async def shopping_get_all_product_order(env: HelperEnv, page: Any) -> list[dict[str, Any]]:
    """Each item row of an order page: cell class -> text (``name``, ``sku``, ``price``,
    ``qty``, ``subtotal``), plus ``options`` read from the name cell's list."""
    rows = await _js(page, ORDER_JS)
    return [r for r in rows if isinstance(r, dict)] if isinstance(rows, list) else []


async def shopping_get_order_product_name_list(env: HelperEnv, page: Any) -> str:
    products = await shopping_get_all_product_order(env, page)
    return " |OR| ".join(str(p.get("name", "")) for p in products)


async def shopping_get_order_product_quantity(env: HelperEnv, page: Any, sku: str) -> int:
    """The ordered quantity of ``sku`` (alternatives joined by `` |OR| ``); the cell reads
    ``Ordered<n>``, as on Magento's order page."""
    skus = sku.split(" |OR| ") if "|OR|" in sku else [sku]
    for product in await shopping_get_all_product_order(env, page):
        if str(product.get("sku", "")).strip() in skus:
            try:
                return int(str(product.get("qty", ""))[7:])
            except ValueError:
                return 0
    return 0


async def shopping_get_order_product_option(env: HelperEnv, page: Any, sku: str,
                                            option: str) -> str:
    for product in await shopping_get_all_product_order(env, page):
        if str(product.get("sku", "")).strip() == sku:
            options = product.get("options")
            return str(options.get(option, "")) if isinstance(options, dict) else ""
    return ""


async def reddit_get_post_comment_tree(env: HelperEnv, page: Any) -> dict[str, Any]:
    tree = await _js(page, TREE_JS)
    return tree if isinstance(tree, dict) else {}


def _when(node: Mapping[str, Any]) -> datetime | None:
    try:
        return datetime.fromisoformat(str(node["time"]).replace("Z", "+00:00"))
    except (KeyError, ValueError):
        return None


def _comment(node: Mapping[str, Any]) -> dict[str, Any]:
    return {k: node.get(k) for k in ("username", "net_score", "content", "time")}


async def reddit_get_latest_comment_obj_by_username(env: HelperEnv, page: Any,
                                                    username: str) -> dict[str, Any]:
    """The newest comment (or the post itself) by ``username`` on a Postmill post page:
    ``{username, net_score, content, time}``, or ``{}``."""
    best: tuple[datetime, dict[str, Any]] | None = None
    stack = [await reddit_get_post_comment_tree(env, page)]
    while stack:
        node = stack.pop()
        when = _when(node)
        if node.get("username") == username and when and (best is None or when > best[0]):
            best = (when, _comment(node))
        stack.extend(c for c in node.get("children") or () if isinstance(c, dict))
    return best[1] if best else {}


async def reddit_get_latest_comment_content_by_username(env: HelperEnv, page: Any,
                                                        username: str) -> str:
    found = await reddit_get_latest_comment_obj_by_username(env, page, username)
    return str(found.get("content", ""))


async def reddit_get_parent_comment_obj_of_latest_comment_by_username(
        env: HelperEnv, page: Any, username: str) -> dict[str, Any]:
    """What the newest comment by ``username`` answers (the comment above it, or the post)."""
    best: tuple[datetime, dict[str, Any]] | None = None
    stack = [await reddit_get_post_comment_tree(env, page)]
    while stack:
        node = stack.pop()
        for child in node.get("children") or ():
            if not isinstance(child, dict):
                continue
            when = _when(child)
            if child.get("username") == username and when:
                if best is None or when > best[0]:
                    best = (when, _comment(node))
            else:
                stack.append(child)
    return best[1] if best else {}


async def reddit_get_parent_comment_username_of_latest_comment_by_username(
        env: HelperEnv, page: Any, username: str) -> str:
    found = await reddit_get_parent_comment_obj_of_latest_comment_by_username(env, page,
                                                                              username)
    return str(found.get("username", ""))


async def gitlab_get_project_memeber_role(env: HelperEnv, page: Any, account: str) -> str:
    """The role shown for ``@account`` on a GitLab project's members page (VWA's spelling of
    the name is kept, since task files call it so)."""
    return str(await _js(page, MEMBER_ROLE_JS, account) or "")


# -- URL readers --------------------------------------------------------------------------

async def reddit_get_post_url(env: HelperEnv, url: str) -> str:
    """``scheme://host/f/<forum>/<id>/`` of a post or comment URL; other URLs unchanged."""
    parts = urlparse(url)
    path = parts.path.split("/")
    if len(path) < 4 or path[1] != "f":
        return url
    return f"{parts.scheme}://{parts.netloc}/f/{path[2]}/{path[3]}/"


async def _admin_get(env: HelperEnv, path: str, params: Mapping[str, str] | None = None) -> Any:
    """GET on the shopping site's REST API with an admin token (fetched once per scoring)."""
    if env.context is None:
        raise HelperError("the shopping site's REST API needs a browser session")
    base = env.site("SHOPPING")
    token = env._tokens.get("SHOPPING")
    if token is None:
        account = env.admins.get("SHOPPING")
        if account is None:
            raise HelperError("no admin account for the shopping site (web settings "
                              "admin_accounts.SHOPPING)")
        resp = await env.context.request.post(
            f"{base}/rest/default/V1/integration/admin/token",
            data={"username": account.username, "password": account.password})
        if not resp.ok:
            raise HelperError(f"the shopping site's admin login answered HTTP {resp.status}")
        token = str(await resp.json())
        env._tokens["SHOPPING"] = token
    resp = await env.context.request.get(f"{base}{path}", params=dict(params or {}),
                                         headers={"Authorization": f"Bearer {token}"})
    if not resp.ok:
        raise HelperError(f"{path} answered HTTP {resp.status}")
    return await resp.json()


async def shopping_get_latest_order_url(env: HelperEnv) -> str:
    """The order page of the newest order (by ``created_at``), addressed by its increment id
    as VWA addresses it."""
    data = await _admin_get(env, "/rest/V1/orders", {
        "searchCriteria[sortOrders][0][field]": "created_at",
        "searchCriteria[sortOrders][0][direction]": "DESC",
        "searchCriteria[pageSize]": "1"})
    try:
        order = int(data["items"][0]["increment_id"])
    except (KeyError, IndexError, TypeError, ValueError):
        raise HelperError("the shopping site has no order") from None
    return f"{env.site('SHOPPING')}/sales/order/view/order_id/{order}/"


async def _latest_review(env: HelperEnv, sku: str) -> dict[str, Any] | None:
    data = await _admin_get(env, f"/rest/V1/products/{quote(sku, safe='')}/reviews")
    if not isinstance(data, list) or not data or not isinstance(data[-1], dict):
        return None
    return data[-1]


async def shopping_get_sku_latest_review_author(env: HelperEnv, sku: str) -> str:
    review = await _latest_review(env, sku)
    return str(review.get("nickname", "")) if review else ""


async def shopping_get_sku_latest_review_rating(env: HelperEnv, sku: str) -> str:
    """The newest review's first rating as a percentage (``"80"`` for four stars)."""
    review = await _latest_review(env, sku)
    if not review:
        return ""
    try:
        return str(review["ratings"][0]["percent"])
    except (KeyError, IndexError, TypeError):
        return ""


async def shopping_get_sku_latest_review_text(env: HelperEnv, sku: str) -> str:
    review = await _latest_review(env, sku)
    return str(review.get("detail", "")) if review else ""


async def shopping_get_sku_latest_review_title(env: HelperEnv, sku: str) -> str:
    review = await _latest_review(env, sku)
    return str(review.get("title", "")) if review else ""


async def shopping_get_sku_product_page_url(env: HelperEnv, sku: str) -> str:
    data = await _admin_get(env, f"/rest/V1/products/{quote(sku, safe='')}")
    for attr in (data or {}).get("custom_attributes") or ():
        if isinstance(attr, dict) and attr.get("attribute_code") == "url_key":
            return f"{env.site('SHOPPING')}/{attr.get('value')}.html"
    return ""


HELPERS: dict[str, HelperSpec] = {
    "get_query_text": HelperSpec(get_query_text),
    "get_query_text_lowercase": HelperSpec(get_query_text_lowercase),
    "shopping_get_product_attributes": HelperSpec(shopping_get_product_attributes),
    "shopping_get_product_price": HelperSpec(shopping_get_product_price),
    "shopping_get_num_reviews": HelperSpec(shopping_get_num_reviews),
    "shopping_get_rating_as_percentage": HelperSpec(shopping_get_rating_as_percentage),
    "shopping_get_all_product_order": HelperSpec(shopping_get_all_product_order),
    "shopping_get_order_product_name_list": HelperSpec(shopping_get_order_product_name_list),
    "shopping_get_order_product_quantity": HelperSpec(shopping_get_order_product_quantity),
    "shopping_get_order_product_option": HelperSpec(shopping_get_order_product_option),
    "reddit_get_post_comment_tree": HelperSpec(reddit_get_post_comment_tree),
    "reddit_get_latest_comment_obj_by_username":
        HelperSpec(reddit_get_latest_comment_obj_by_username),
    "reddit_get_latest_comment_content_by_username":
        HelperSpec(reddit_get_latest_comment_content_by_username),
    "reddit_get_parent_comment_obj_of_latest_comment_by_username":
        HelperSpec(reddit_get_parent_comment_obj_of_latest_comment_by_username),
    "reddit_get_parent_comment_username_of_latest_comment_by_username":
        HelperSpec(reddit_get_parent_comment_username_of_latest_comment_by_username),
    "gitlab_get_project_memeber_role": HelperSpec(gitlab_get_project_memeber_role),
    "reddit_get_post_url": HelperSpec(reddit_get_post_url, page=False),
    "shopping_get_latest_order_url": HelperSpec(shopping_get_latest_order_url, page=False,
                                                admin="SHOPPING"),
    "shopping_get_sku_latest_review_author":
        HelperSpec(shopping_get_sku_latest_review_author, page=False, admin="SHOPPING"),
    "shopping_get_sku_latest_review_rating":
        HelperSpec(shopping_get_sku_latest_review_rating, page=False, admin="SHOPPING"),
    "shopping_get_sku_latest_review_text":
        HelperSpec(shopping_get_sku_latest_review_text, page=False, admin="SHOPPING"),
    "shopping_get_sku_latest_review_title":
        HelperSpec(shopping_get_sku_latest_review_title, page=False, admin="SHOPPING"),
    "shopping_get_sku_product_page_url":
        HelperSpec(shopping_get_sku_product_page_url, page=False, admin="SHOPPING"),
}
"""Every helper of VWA's helper module that its evaluators can call (the judge helpers
``llm_fuzzy_match`` / ``llm_ua_match`` are PlayBench's judge, not ``func:`` helpers)."""


def caller(env: HelperEnv) -> Callable[[str, list[Any]], Awaitable[Any]]:
    """The ``call`` function :func:`playbench.games.web.expr.evaluate` runs helpers with:
    checks the argument count against the helper's signature (a wrong count is a task
    error, raised as HelperError naming the helper)."""
    import inspect

    async def call(name: str, args: list[Any]) -> Any:
        spec = HELPERS[name]
        want = len(inspect.signature(spec.fn).parameters) - 1
        if len(args) != want:
            raise HelperError(f"{name} takes {want} argument(s), got {len(args)}")
        return await spec.fn(env, *args)

    return call


def arity(name: str) -> int:
    """How many arguments a task's call of helper ``name`` passes (the page included)."""
    import inspect
    return len(inspect.signature(HELPERS[name].fn).parameters) - 1


__all__ = ["HELPERS", "HelperSpec", "HelperEnv", "HelperError", "AdminAccount", "caller",
           "arity", "PAGE_NAME"]
