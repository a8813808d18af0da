"""Issue 14 items 12 (viewport_size) and 13: VWA's task files as they sit in VWA's repository.

Per-task ``viewport_size`` sets the session's viewport (real Chromium: the screenshot has that
size); image and storage_state paths are read from VWA's root (found from the ``config_files``
directory, or named by ``--vwa-root`` / ``$PLAYBENCH_VWA_ROOT``); a login recipe per site writes
the storage state a task names (against the bundled site's real login form), never showing the
password; ``web check`` warns when VWA's own classifieds tasks would run on the bundled site.
All task files here are written in VWA's format for these tests.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from playbench.app.cli import main
from playbench.app.core.task import Task
from playbench.games.web.checks import check_config
from playbench.games.web.config import LoginRecipe, WebConfig, load_config
from playbench.games.web.env import WebTaskEnv
from playbench.games.web.login import LoginError, StateFile, state_files, write_state
from playbench.games.web.sources import load_levels
from playbench.games.web.tasks import VWA_ROOT_ENV, load_text, task_from_level, viewport_of
from playbench.resources.web.site import LOGIN_PATH, TEST_PASSWORD, TEST_USER
from tests.web.conftest import web_task

ASYNC = pytest.mark.asyncio(loop_scope="module")
PLAYBENCH = str(Path(sys.executable).with_name("playbench"))


def vwa_task(task_id: int, **changes) -> dict:
    """A task object with every field VWA's config files have."""
    base = {"sites": ["classifieds"], "task_id": task_id, "require_login": True,
            "storage_state": "./.auth/classifieds_state.json", "start_url": "__CLASSIFIEDS__",
            "geolocation": None, "intent_template": "Find {{x}}", "intent": "Find the lamp",
            "image": None, "instantiation_dict": {"x": "the lamp"}, "require_reset": False,
            "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "1"},
                     "reference_url": "", "program_html": []},
            "reasoning_difficulty": "easy", "visual_difficulty": "easy",
            "overall_difficulty": "easy", "comments": "", "intent_template_id": 0}
    base.update(changes)
    return base


def recipe(**changes) -> LoginRecipe:
    """The bundled site's login form, as a web.json recipe would describe it."""
    fields = {"url": LOGIN_PATH, "fields": {"#l-user": "{username}", "#l-pass": "{password}"},
              "username": TEST_USER, "password": TEST_PASSWORD,
              "submit": "form[action*=login] button", "expect": "Log out"}
    fields.update(changes)
    return LoginRecipe(**fields)


def checkout(root: Path, tasks: list[dict], image: bool = True) -> Path:
    """A directory laid out as VWA's repository: task file under config_files/, an input image
    under environment_docker/, the .auth directory for login states."""
    if image:
        img = root / "environment_docker/webarena-homepage/static/input_images/t/input_0.png"
        img.parent.mkdir(parents=True)
        Image.fromarray(np.full((8, 8, 3), 200, np.uint8)).save(img)
    path = root / "config_files" / "vwa" / "test_classifieds.raw.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(tasks, indent=4))
    return path


IMAGE = "environment_docker/webarena-homepage/static/input_images/t/input_0.png"


# -- viewport_size (item 12) -------------------------------------------------------------------

def test_viewport_size_is_laid_over_the_default():
    default = (1280, 2048)
    assert viewport_of({"viewport_size": {"width": 390, "height": 844}}, default) == (390, 844)
    assert viewport_of({"viewport_size": {"height": 720}}, default) == (1280, 720)
    assert viewport_of({}, default) == default
    level = load_text(json.dumps(vwa_task(1, viewport_size={"width": 390, "height": 844},
                                          playbench={"viewport": [800, 600]})), "t.json")[0]
    # PlayBench's own viewport block, when a task has one, is the explicit choice
    assert task_from_level(level).viewport_for(default) == (800, 600)


def test_check_knows_viewport_size_and_refuses_a_bad_one():
    def problems(size):
        level = load_text(json.dumps(vwa_task(1, require_login=False, storage_state=None,
                                              viewport_size=size)), "t.json")[0]
        return [str(p) for p in check_config(task_from_level(level), {"CLASSIFIEDS": None})]
    assert problems({"width": 390, "height": 844}) == []
    assert any(p.startswith("viewport_size: must be") for p in problems({"width": "wide"}))
    assert any(p.startswith("viewport_size: must be") for p in problems([390, 844]))


@ASYNC
async def test_a_phone_sized_task_is_played_at_its_viewport(make_env):
    """Real Chromium: the screenshot and the Set-of-Marks viewport have the task's size."""
    for size, expected in (({"width": 390, "height": 844}, (844, 390)),
                           ({"height": 700}, (700, 1280)), (None, (2048, 1280))):
        task = web_task(start="__CLASSIFIEDS__/index.php?page=search")
        config = json.loads(task.level.text)
        if size is not None:
            config["viewport_size"] = size
        level = load_text(json.dumps(config), "t.json")[0]
        env = make_env()
        try:
            obs = await env.reset(Task("web", level, {}, "test"), 0)
            assert obs.frame.shape == (*expected, 3), size
            assert obs.info["raw_frame"].shape[:2] == expected
            assert tuple(obs.info["viewport"]) == (expected[1], expected[0])
        finally:
            await env.close()


# -- VWA's layout (item 13) --------------------------------------------------------------------

def test_paths_are_read_from_vwa_root_found_from_config_files(tmp_path, monkeypatch):
    monkeypatch.delenv(VWA_ROOT_ENV, raising=False)
    root = tmp_path / "visualwebarena"
    path = checkout(root, [vwa_task(0, require_login=False, storage_state=None, image=IMAGE)])
    level = load_levels(str(path))[0]
    task = task_from_level(level)
    assert Path(task.base_dir) == root.resolve()
    assert check_config(task, {"CLASSIFIEDS": None}) == []
    # the same file copied out of the checkout: the image is not found next to it ...
    elsewhere = tmp_path / "copy" / "tasks.json"
    elsewhere.parent.mkdir()
    elsewhere.write_text(path.read_text())
    outside = task_from_level(load_levels(str(elsewhere))[0])
    assert [p.field for p in check_config(outside, {"CLASSIFIEDS": None})] == ["image"]
    # ... until VWA's root is named, as an argument or in the environment
    named = task_from_level(load_levels(str(elsewhere), vwa_root=root)[0])
    assert check_config(named, {"CLASSIFIEDS": None}) == []
    monkeypatch.setenv(VWA_ROOT_ENV, str(root))
    from_env = task_from_level(load_levels(str(elsewhere))[0])
    assert Path(from_env.base_dir) == root.resolve()


def test_web_check_takes_vwa_root(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(VWA_ROOT_ENV, raising=False)
    root = tmp_path / "vwa"
    path = checkout(root, [vwa_task(0, require_login=False, storage_state=None, image=IMAGE)])
    copy = tmp_path / "tasks.json"
    copy.write_text(path.read_text())
    assert main(["web", "check", str(copy)]) == 1
    assert "image: file" in capsys.readouterr().out
    assert main(["web", "check", str(copy), "--vwa-root", str(root)]) == 0
    assert capsys.readouterr().out.strip() == "task 0: ok"
    assert main(["web", "check", str(path)]) == 0  # inside the checkout: found by itself


def test_storage_state_file_missing_is_fatal_unless_a_recipe_can_write_it(tmp_path):
    root = tmp_path / "vwa"
    path = checkout(root, [vwa_task(0)], image=False)
    task = task_from_level(load_levels(str(path))[0])
    sites = {"CLASSIFIEDS": "http://127.0.0.1:1"}
    fatal = [p for p in check_config(task, sites) if p.fatal]
    assert [p.field for p in fatal] == ["storage_state"]
    assert "playbench web login" in fatal[0].message
    with_recipe = check_config(task, sites, logins={"CLASSIFIEDS"})
    assert [(p.field, p.fatal) for p in with_recipe] == [("storage_state", False)]


def test_state_files_group_the_sites_of_each_file(tmp_path):
    root = tmp_path / "vwa"
    path = checkout(root, [
        vwa_task(0), vwa_task(1),
        vwa_task(2, sites=["classifieds", "reddit"],
                 storage_state="./.auth/classifieds.reddit_state.json",
                 start_url="__CLASSIFIEDS__ |AND| __REDDIT__"),
        vwa_task(3, require_login=False, storage_state=None)], image=False)
    files = state_files(task_from_level(lv) for lv in load_levels(str(path)))
    by_name = {f.path.name: f for f in files}
    assert set(by_name) == {"classifieds_state.json", "classifieds.reddit_state.json"}
    assert by_name["classifieds_state.json"].sites == ("CLASSIFIEDS",)
    assert by_name["classifieds_state.json"].tasks == (0, 1)
    assert by_name["classifieds.reddit_state.json"].sites == ("CLASSIFIEDS", "REDDIT")
    assert by_name["classifieds_state.json"].path.parent == (root / ".auth").resolve()


def test_login_recipes_are_read_from_web_json(tmp_path):
    path = tmp_path / "web.json"
    path.write_text(json.dumps({"sites": {"CLASSIFIEDS": "http://h:1"}, "logins": {
        "__CLASSIFIEDS__": {"url": "/login", "fields": {"#u": "{username}"},
                            "username": "me", "password_env": "MY_PW"}}}))
    config = load_config(path, environ={})
    got = config.logins["CLASSIFIEDS"]
    assert (got.url, got.username, got.password_env) == ("/login", "me", "MY_PW")
    assert got.secret({"MY_PW": "s3cret"}) == "s3cret"
    assert "s3cret" not in repr(LoginRecipe("/l", {"#u": "x"}, "me", "s3cret"))
    path.write_text(json.dumps({"logins": {"CLASSIFIEDS": {"url": "/login", "fields": []}}}))
    with pytest.raises(ValueError, match="logins.CLASSIFIEDS.fields"):
        load_config(path, environ={})


@ASYNC
async def test_login_writes_the_state_and_the_task_starts_logged_in(browser, site, tmp_path):
    """The bundled site's real login form, mapped as an outside site (so it is not reset):
    the recipe logs in, the state file is where the task expects it, and the task's start page
    (the account page, which sends a visitor to the login form) opens logged in."""
    root = tmp_path / "vwa"
    account = "__CLASSIFIEDS__/index.php?page=account"
    path = checkout(root, [vwa_task(0, start_url=account)], image=False)
    config = WebConfig({"CLASSIFIEDS": site.base_url}, logins={"CLASSIFIEDS": recipe(
        password=None, password_env="PB_TEST_LOGIN")})
    task = task_from_level(load_levels(str(path))[0])
    [state] = state_files([task])
    await write_state(browser, state, config, environ={"PB_TEST_LOGIN": TEST_PASSWORD})
    saved = json.loads((root / ".auth" / "classifieds_state.json").read_text())
    assert any(c["name"] == "pb_session" for c in saved["cookies"])
    env = WebTaskEnv(browser=browser, config=config)
    try:
        obs = await env.reset(Task("web", load_levels(str(path))[0], {}, "t"), 0)
        assert env.error is None, env.error
        assert obs.info["url"].endswith("page=account")
        assert "Log out" in obs.text
    finally:
        await env.close()
    # without the state the same page sends the visitor to the login form
    (root / ".auth" / "classifieds_state.json").unlink()
    env = WebTaskEnv(browser=browser, config=WebConfig({"CLASSIFIEDS": site.base_url}))
    try:
        obs = await env.reset(Task("web", load_levels(str(path))[0], {}, "t"), 0)
        assert env.error is not None and "storage_state" in env.error
    finally:
        await env.close()


@ASYNC
async def test_an_episode_writes_a_missing_state_with_the_recipe(browser, site, tmp_path):
    root = tmp_path / "vwa"
    path = checkout(root, [vwa_task(0, start_url="__CLASSIFIEDS__/index.php?page=account")],
                    image=False)
    config = WebConfig({"CLASSIFIEDS": site.base_url}, logins={"CLASSIFIEDS": recipe()})
    env = WebTaskEnv(browser=browser, config=config)
    try:
        obs = await env.reset(Task("web", load_levels(str(path))[0], {}, "t"), 0)
        assert env.error is None, env.error
        assert obs.info["url"].endswith("page=account") and "Log out" in obs.text
        assert (root / ".auth" / "classifieds_state.json").exists()
    finally:
        await env.close()


@ASYNC
async def test_a_wrong_password_fails_clearly_without_showing_it(browser, site, tmp_path):
    wrong = "not-the-password-417"
    config = WebConfig({"CLASSIFIEDS": site.base_url},
                       logins={"CLASSIFIEDS": recipe(password=wrong)})
    state = StateFile(tmp_path / "s.json", ("CLASSIFIEDS",), (0,))
    with pytest.raises(LoginError) as info:
        await write_state(browser, state, config)
    assert "CLASSIFIEDS" in str(info.value) and wrong not in str(info.value)
    assert not state.path.exists()
    # a recipe without "expect" judges by leaving the login page
    config = WebConfig({"CLASSIFIEDS": site.base_url},
                       logins={"CLASSIFIEDS": recipe(password=wrong, expect=None)})
    with pytest.raises(LoginError, match="still on the login page"):
        await write_state(browser, state, config)


@pytest.mark.browser
def test_web_login_command_writes_every_state_file(site, tmp_path):
    """The real CLI (a subprocess): web.json with the recipe, the password from the
    environment; the password appears nowhere in the output, even with -v."""
    root = tmp_path / "vwa"
    path = checkout(root, [vwa_task(0), vwa_task(1)], image=False)
    settings = tmp_path / "web.json"
    settings.write_text(json.dumps({"sites": {"CLASSIFIEDS": site.base_url}, "logins": {
        "CLASSIFIEDS": {"url": LOGIN_PATH, "fields": {"#l-user": "{username}",
                                                      "#l-pass": "{password}"},
                        "submit": "form[action*=login] button", "expect": "Log out",
                        "username": TEST_USER, "password_env": "PB_TEST_LOGIN"}}}))
    env = {**os.environ, "PLAYBENCH_WEB_CONFIG": str(settings), "PB_TEST_LOGIN": TEST_PASSWORD,
           "PLAYBENCH_CHROMIUM": os.environ.get("PLAYBENCH_CHROMIUM", "/usr/bin/chromium")}
    run = subprocess.run([PLAYBENCH, "-v", "web", "login", str(path)], env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    state = root / ".auth" / "classifieds_state.json"
    assert state.exists()
    assert f"{state.resolve()}: written (__CLASSIFIEDS__ as {TEST_USER}; 2 task(s))" in run.stdout
    assert TEST_PASSWORD not in run.stdout + run.stderr
    bad = subprocess.run([PLAYBENCH, "web", "login", str(path)],
                         env={**env, "PB_TEST_LOGIN": "wrong-one-93"}, capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 1 and "not written" in bad.stdout
    assert "wrong-one-93" not in bad.stdout + bad.stderr


def test_web_check_warns_when_vwa_classifieds_tasks_meet_the_bundled_site(tmp_path, capsys):
    path = checkout(tmp_path / "vwa", [vwa_task(0, require_login=False, storage_state=None)],
                    image=False)
    assert main(["web", "check", str(path)]) == 0
    err = capsys.readouterr().err
    assert "warning: __CLASSIFIEDS__ has no address" in err
    assert "VWA's own classifieds tasks target VWA's site content" in err
    assert main(["web", "check", str(path), "--site", "CLASSIFIEDS=http://127.0.0.1:9980"]) == 0
    assert "VWA's own" not in capsys.readouterr().err
    assert main(["web", "check", "classifieds"]) == 0  # the bundled set is written for it
    assert "VWA's own" not in capsys.readouterr().err
