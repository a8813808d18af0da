"""Issue 30: how many tasks of a folder laid out as VWA's ``config_files/vwa`` are usable,
counted by the real CLI (``playbench web check DIR`` in a subprocess). The fixture folder
(our own tasks, in VWA's format) holds one task per ``func:`` helper VWA's evaluators call and
per locator form (CSS, ``document.``, empty, ``get_query_text``, ``func:`` with ``[key]``,
``lambda:``) and per ``func:`` page address (``shopping_get_latest_order_url``,
``reddit_get_post_url('__last_url__')``, ``shopping_get_sku_product_page_url``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

FOLDER = Path(__file__).parent / "fixtures" / "vwa_layout" / "config_files" / "vwa"
SITES = {"SHOPPING": "http://127.0.0.1:7770", "REDDIT": "http://127.0.0.1:9999",
         "CLASSIFIEDS": "http://127.0.0.1:9980"}


def check(tmp_path: Path, settings: dict[str, object]) -> subprocess.CompletedProcess:
    config = tmp_path / "web.json"
    config.write_text(json.dumps(settings))
    env = {**os.environ, "PLAYBENCH_WEB_CONFIG": str(config),
           "PLAYBENCH_CONFIG_DIR": str(tmp_path)}
    return subprocess.run([sys.executable, "-m", "playbench", "web", "check", str(FOLDER)],
                          capture_output=True, text=True, env=env, timeout=120)


def test_every_helper_and_locator_form_is_usable(tmp_path):
    done = check(tmp_path, {"sites": SITES, "admin_accounts": {
        "SHOPPING": {"username": "admin", "password_env": "UNSET_FOR_THE_CHECK"}}})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "24 of 24 tasks usable in 3 files" in done.stderr
    assert "test_shopping.raw.json: 15 of 15 tasks usable" in done.stderr
    assert "unusable" not in done.stdout


def test_without_the_admin_account_the_rest_helpers_are_listed_with_the_reason(tmp_path):
    done = check(tmp_path, {"sites": SITES})
    assert done.returncode == 1
    refused = [line for line in done.stdout.splitlines() if "unusable" in line]
    # The latest-order tasks (5), the review tasks (3) and the SKU page task read the REST API.
    assert len(refused) == 9
    assert all(line.startswith("test_shopping.raw.json: task ") for line in refused)
    assert "admin_accounts.SHOPPING" in refused[0]
    assert "15 of 24 tasks usable in 3 files" in done.stderr
