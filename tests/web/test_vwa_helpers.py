"""Issue 30: VWA's ``func:`` helpers and ``lambda:`` locators, run in real Chromium against a
stand-in site on 127.0.0.1 (tests/web/vwa_fake_site.py): each check scores 1 on the right
content and 0 on wrong content, through the scoring episodes use; ``clear`` and ``upload``
played through the real loop."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_asyncio

from playbench.app.core.task import Task
from playbench.games.browser.session import SessionOptions, host_of
from playbench.games.web.config import AdminLogin, WebConfig
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.helpers import AdminAccount, HelperEnv
from playbench.games.web.scoring import score_task
from playbench.games.web.tasks import load_text
from tests.web.conftest import play
from tests.web.vwa_fake_site import ADMIN, FakeVwaSite

OK = [
    # (page url, locator, required_contents, final page path)
    ("func:shopping_get_latest_order_url()",
     'document.querySelector(".order-details-items.ordered").outerText',
     {"must_include": ["B0983XCYK6"]}, "/"),
    ("__SHOPPING__", 'func:shopping_get_sku_latest_review_rating("B0983XCYK6")',
     {"must_include": ["80"]}, "/"),
    ("__SHOPPING__", "func:shopping_get_sku_latest_review_author('B0983XCYK6')",
     {"exact_match": "Emma Lopez"}, "/"),
    ("__SHOPPING__", "func:shopping_get_sku_latest_review_text('B0983XCYK6')",
     {"must_include": ["Flies in any wind"]}, "/"),
    ("__SHOPPING__", "func:shopping_get_sku_latest_review_title('B0983XCYK6')",
     {"exact_match": "Great kite"}, "/"),
    ("func:shopping_get_sku_product_page_url('B0983XCYK6')",
     "func:shopping_get_product_price(__page__)", {"required_values": ["== 24.5"]}, "/"),
    ("__SHOPPING__/trail-kite.html",
     "func:shopping_get_product_attributes(__page__, 'colour |OR| color')",
     {"exact_match": "Red"}, "/"),
    ("__SHOPPING__/trail-kite.html", "func:shopping_get_num_reviews(__page__)",
     {"required_values": ["== 12"]}, "/"),
    ("__SHOPPING__/trail-kite.html", "func:shopping_get_rating_as_percentage(__page__)",
     {"required_values": [">= 80"]}, "/"),
    ("__SHOPPING__/sales/order/view/order_id/123/",
     "func:shopping_get_order_product_name_list(__page__)",
     {"must_include": ["Kite string"]}, "/"),
    ("__SHOPPING__/sales/order/view/order_id/123/",
     "func:shopping_get_order_product_quantity(__page__, 'B0983XCYK6')",
     {"required_values": ["== 2"]}, "/"),
    ("__SHOPPING__/sales/order/view/order_id/123/",
     "func:shopping_get_order_product_option(__page__, 'B0983XCYK6', 'Size')",
     {"exact_match": "Large"}, "/"),
    ("func:reddit_get_post_url('__last_url__')",
     "func:reddit_get_latest_comment_content_by_username(__page__, 'MarvelsGrantMan136')",
     {"exact_match": "newest reply"}, "/f/gadgets/12345/has-anyone"),
    ("func:reddit_get_post_url('__last_url__')",
     "func:reddit_get_latest_comment_obj_by_username(__page__, 'MarvelsGrantMan136')"
     "['net_score']", {"required_values": ["== 3"]}, "/f/gadgets/12345/has-anyone"),
    ("last", "func:reddit_get_parent_comment_username_of_latest_comment_by_username("
             "__page__, 'MarvelsGrantMan136')", {"exact_match": "kiteflyer"},
     "/f/gadgets/12345/has-anyone"),
    ("__GITLAB__/project/members",
     "func:gitlab_get_project_memeber_role(__page__, 'kitelover')",
     {"exact_match": "Developer"}, "/"),
    ("last", "lambda:(() => document.querySelector('.submission__title').textContent)()",
     {"must_include": ["anyone bought"]}, "/f/gadgets/12345/has-anyone"),
    ("last", "func:get_query_text_lowercase(__page__, '.submission__title')",
     {"must_include": ["has anyone bought"]}, "/f/gadgets/12345/has-anyone"),
]


def _wrong(required: dict[str, list[str] | str]) -> dict[str, list[str] | str]:
    """The same check asking for something the page does not show."""
    kind, value = next(iter(required.items()))
    if kind == "required_values":
        return {kind: ["== 9999"]}
    return {kind: "not on the page" if isinstance(value, str) else ["not on the page"]}


@pytest.fixture(scope="module")
def fake():
    with FakeVwaSite() as base:
        yield base


@pytest_asyncio.fixture(loop_scope="module")
async def session(browser, fake):
    s = await browser.new_session(SessionOptions(frozenset({host_of(fake)})))
    yield s
    await s.close()


def _config(fake: str, url: str, locator: str, required: object) -> dict[str, object]:
    item = {"url": url, "locator": locator, "required_contents": required}
    text = json.dumps({"task_id": 1, "intent": "x", "eval": {
        "eval_types": ["program_html"], "program_html": [item]}})
    for name in ("SHOPPING", "REDDIT", "GITLAB"):
        text = text.replace(f"__{name}__", fake)
    return dict(json.loads(text))


def _helpers(session, fake: str, admin: bool = True) -> HelperEnv:
    return HelperEnv(session.context, {"SHOPPING": fake, "REDDIT": fake, "GITLAB": fake},
                     {"SHOPPING": AdminAccount(*ADMIN)} if admin else {})


@pytest.mark.parametrize("url,locator,required,final", OK,
                         ids=[c[1].split("(")[0][:48] for c in OK])
@pytest.mark.asyncio(loop_scope="module")
async def test_each_helper_reads_the_page_as_vwas_does(session, fake, url, locator, required,
                                                       final):
    await session.open_tabs([fake + final])
    good = await score_task(_config(fake, url, locator, required), session, "", ".", None,
                            None, _helpers(session, fake))
    bad = await score_task(_config(fake, url, locator, _wrong(required)), session, "", ".",
                           None, None, _helpers(session, fake))
    assert (good["program_html"], bad["program_html"]) == (1.0, 0.0)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_lambda_that_selects_nothing_fails_the_check_as_in_vwa(session, fake):
    await session.open_tabs([fake + "/form.html"])
    parts = await score_task(_config(fake, "last", "lambda:(() => null)()",
                                     {"must_exclude": ["anything"]}), session, "", ".",
                             helpers=_helpers(session, fake))
    assert parts["program_html"] == 0.0


@pytest.mark.asyncio(loop_scope="module")
async def test_rest_helpers_without_the_admin_account_leave_the_check_unscored(session, fake):
    await session.open_tabs([fake + "/"])
    parts = await score_task(_config(fake, "__SHOPPING__",
                                     "func:shopping_get_sku_latest_review_author('B0983XCYK6')",
                                     {"exact_match": "Emma Lopez"}), session, "", ".",
                             helpers=_helpers(session, fake, admin=False))
    assert parts["program_html"] is None


def _form_task(image: str) -> dict[str, object]:
    return {"task_id": 7, "sites": ["shopping"], "start_url": "__SHOPPING__/form.html",
            "intent": "Empty the search box and attach the photo.", "image": image,
            "require_login": False, "storage_state": None, "eval": {
                "eval_types": ["program_html"], "program_html": [
                    {"url": "last", "locator": "document.querySelector('#q').value",
                     "required_contents": {"exact_match": ""}},
                    {"url": "last", "locator": "func:get_query_text(__page__, '#picked')",
                     "required_contents": {"exact_match": "kite.png"}}]},
            "playbench": {"reference": ["clear [{#q}]", "upload [{#f}] [kite.png]",
                                        "stop []"]}}


@pytest.mark.asyncio(loop_scope="module")
async def test_clear_and_upload_play_through_the_loop(browser, fake, tmp_path: Path):
    (tmp_path / "kite.png").write_bytes(_png())
    level = load_text(json.dumps(_form_task("kite.png")), "form.json", str(tmp_path))[0]
    env = WebTaskEnv(browser=browser, config=WebConfig(
        {"SHOPPING": fake}, admins={"SHOPPING": AdminLogin(*ADMIN)}))
    result = await play(env, Task("web", level, {}, "form.json"))
    assert result.scores["program_html"] == 1.0


@pytest.mark.asyncio(loop_scope="module")
async def test_upload_refuses_a_file_the_task_does_not_offer(browser, fake, tmp_path: Path):
    (tmp_path / "kite.png").write_bytes(_png())
    task = _form_task("kite.png")
    task["playbench"] = {"reference": ["upload [{#f}] [/etc/passwd]", "stop []"]}
    level = load_text(json.dumps(task), "form.json", str(tmp_path))[0]
    env = WebTaskEnv(browser=browser, config=WebConfig({"SHOPPING": fake}))
    result = await play(env, Task("web", level, {}, "form.json"))
    assert result.scores["program_html"] == 0.0


def _png() -> bytes:
    import io

    from PIL import Image
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 40, 40)).save(out, "PNG")
    return out.getvalue()
