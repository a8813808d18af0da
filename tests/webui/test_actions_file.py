"""MageBench's ``actions.py`` read as data (``games/webui/actions_file.py``): files that try to
run code are refused with nothing executed; random literal steps written as Selenium code read
back to the same ops; random non-literal code is refused with an ActionsError naming the file,
never another exception."""

from __future__ import annotations

import contextlib
import keyword
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from playbench.games.base import LevelError
from playbench.games.webui.actions_file import KEYS, ActionsError, read_actions
from playbench.games.webui.tasks import load_levels

FOLDER = Path(__file__).parent / "magebench_files" / "resources" / "WebUI" / "Counter-Card"

HEADER = ("from selenium.webdriver.common.by import By\n"
          "from selenium.webdriver.common.keys import Keys\n"
          "from selenium.webdriver.common.action_chains import ActionChains\n"
          "import time\n\n")

HOSTILE = {
    "module-level call": "{run}\n\ndef a(driver):\n    time.sleep(1)\n\nactions = [a]\n",
    "call in a step": "def a(driver):\n    {run}\n\nactions = [a]\n",
    "call in an unscored helper": ("def a(driver):\n    time.sleep(1)\n\n"
                                   "def interact(driver, dir):\n    {run}\n\nactions = [a]\n"),
    "import of os": ("import os\n\ndef a(driver):\n    os.system('touch {marker}')\n\n"
                     "actions = [a]\n"),
    "attribute access": ("def a(driver):\n    g = driver.find_element.__globals__\n"
                         "    g['__builtins__']['exec']('{run_q}')\n\nactions = [a]\n"),
    "f-string with an expression": ("def a(driver):\n    driver.find_element(By.ID, "
                                    "f\"{{{run}}}\").click()\n\nactions = [a]\n"),
    "f-string in a screenshot path": ("def a(driver):\n    time.sleep(1)\n\n"
                                      "def interact(driver, dir):\n    driver.save_screenshot("
                                      "f\"{{{run}}}.png\")\n\nactions = [a]\n"),
    "decorator": "@{run}\ndef a(driver):\n    time.sleep(1)\n\nactions = [a]\n",
    "default argument": ("def a(driver, x={run}):\n    time.sleep(1)\n\nactions = [a]\n"),
    "lambda in the list": "actions = [lambda driver: {run}]\n",
    "exec of a string": "exec('{run_q}')\nactions = []\n",
    "open a file": ("def a(driver):\n    open('{marker}', 'w').write('x')\n\n"
                    "actions = [a]\n"),
    "sleep computed": "def a(driver):\n    time.sleep({run})\n\nactions = [a]\n",
    "unknown script": ("def a(driver):\n    driver.execute_script(\"fetch('/x')\")\n\n"
                       "actions = [a]\n"),
    "keys from a call": ("def a(driver):\n    driver.find_element(By.ID, 'q').send_keys("
                         "{run})\n\nactions = [a]\n"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_file_that_tries_to_run_code_is_refused_and_nothing_runs(name, tmp_path) -> None:
    marker = tmp_path / "MARKER"
    run = f"__import__('os').system('touch {marker}')"
    body = HOSTILE[name].format(run=run, run_q=run.replace("'", "\\'"), marker=marker)
    folder = tmp_path / "Hostile"
    shutil.copytree(FOLDER, folder)
    (folder / "actions.py").write_text(HEADER + body)
    with pytest.raises(LevelError) as err:
        load_levels(str(folder))
    assert str(folder / "actions.py") in str(err.value)
    with pytest.raises(ActionsError):
        read_actions(HEADER + body, "actions.py")
    assert not marker.exists()


def test_the_refusal_names_the_line() -> None:
    source = HEADER + "def a(driver):\n    time.sleep(1)\n    getattr(driver, 'quit')()\n\n" \
                      "actions = [a]\n"
    with pytest.raises(ActionsError, match=r"^here\.py:8: "):
        read_actions(source, "here.py")


# --- round trip: random literal steps written as Selenium code read back as the same ops -----

BY_NAMES = {"id": "ID", "class": "CLASS_NAME", "css": "CSS_SELECTOR", "xpath": "XPATH",
            "tag": "TAG_NAME", "name": "NAME"}
locators = st.tuples(st.sampled_from(sorted(BY_NAMES)), st.text(max_size=20))
key_items = st.lists(st.one_of(st.builds(lambda t: {"text": t}, st.text(min_size=1, max_size=12)),
                               st.builds(lambda k: {"key": k}, st.sampled_from(sorted(KEYS)))),
                     min_size=1, max_size=3)
actions_ = st.one_of(
    st.tuples(st.just("click"), locators),
    st.tuples(st.just("submit"), locators),
    st.tuples(st.just("hover"), locators),
    st.tuples(st.just("double_click"), locators),
    st.tuples(st.just("keys"), locators, key_items),
    st.tuples(st.just("drag"), locators, locators),
    st.tuples(st.just("wait"), st.floats(0, 60, allow_nan=False)),
    st.tuples(st.just("bottom")),
    st.tuples(st.just("scroll_by"), st.integers(-5000, 5000)),
)
programs = st.lists(st.lists(actions_, min_size=1, max_size=5), min_size=1, max_size=3)


def write(program: list[list[tuple]]) -> tuple[str, list[list[dict]]]:
    """Selenium code for ``program`` (functions of abstract actions) and the ops it means."""
    source, expected = [HEADER], []
    for f, acts in enumerate(program):
        lines, ops, n = [f"def step_{f}(driver):"], [], 0

        def find(loc: tuple[str, str]) -> str:
            nonlocal n
            n += 1
            var = f"e{n}"
            lines.append(f"    {var} = driver.find_element(By.{BY_NAMES[loc[0]]}, {loc[1]!r})")
            ops.append({"op": "find", "as": var, "by": loc[0], "value": loc[1], "within": None,
                        "index": None, "many": False, "wait": 0.0})
            return var

        for act in acts:
            kind = act[0]
            if kind in ("click", "submit"):
                var = find(act[1])
                lines.append(f"    {var}.{kind}()")
                ops.append({"op": kind, "el": var})
            elif kind in ("hover", "double_click"):
                var = find(act[1])
                method = "move_to_element" if kind == "hover" else "double_click"
                lines.append(f"    ActionChains(driver).{method}({var}).perform()")
                ops.append({"op": kind, "el": var})
            elif kind == "keys":
                var = find(act[1])
                parts = [repr(k["text"]) if "text" in k else f"Keys.{k['key']}" for k in act[2]]
                lines.append(f"    {var}.send_keys({' + '.join(parts)})")
                ops.append({"op": "keys", "el": var, "keys": [
                    k if "text" in k else {"key": KEYS[k["key"]]} for k in act[2]]})
            elif kind == "drag":
                a, b = find(act[1]), find(act[2])
                lines.append(f"    chain = ActionChains(driver)\n"
                             f"    chain.drag_and_drop({a}, {b}).perform()")
                ops.append({"op": "drag", "el": a, "to": b})
            elif kind == "wait":
                lines.append(f"    time.sleep({act[1]!r})")
                ops.append({"op": "wait", "seconds": float(act[1])})
            elif kind == "bottom":
                lines.append('    driver.execute_script("window.scrollTo(0, '
                             'document.body.scrollHeight);")')
                ops.append({"op": "scroll", "to": "bottom"})
            else:
                lines.append(f'    driver.execute_script("window.scrollBy(0, {act[1]})")')
                ops.append({"op": "scroll", "by": act[1]})
        source.append("\n".join(lines) + "\n\n")
        expected.append(ops)
    source.append(f"actions = [{', '.join(f'step_{f}' for f in range(len(program)))}]\n")
    return "".join(source), expected


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(programs)
def test_random_literal_steps_round_trip(program) -> None:
    source, expected = write(program)
    steps = read_actions(source, "random.py")
    assert [s.name for s in steps] == [f"step_{f}" for f in range(len(program))]
    assert [list(s.ops) for s in steps] == expected


# --- random non-literal code is refused cleanly ----------------------------------------------

names = st.from_regex(r"[a-z_][a-z0-9_]{0,7}", fullmatch=True).filter(
    lambda n: not keyword.iskeyword(n) and n not in ("driver", "time", "sleep"))
non_literals = st.one_of(
    st.builds("{}()".format, names),
    st.builds("{}.{}".format, names, names),
    st.builds("{}.{}()".format, names, names),
    st.builds("f'{{{}}}'".format, names),
    st.builds("f'x{{{}.{}}}'".format, names, names),
    st.builds("(lambda: {})".format, names),
    st.builds("{}[0]".format, names),
    st.builds("[x for x in {}]".format, names),
    st.builds("__import__({!r})".format, names),
    st.builds("getattr(driver, {!r})".format, names),
    st.builds("{} + 1".format, names),
)
placements = st.sampled_from([
    "def a(driver):\n    driver.find_element(By.ID, 'q').send_keys({x})\n\nactions = [a]\n",
    "def a(driver):\n    driver.find_element(By.ID, {x}).click()\n\nactions = [a]\n",
    "def a(driver):\n    time.sleep({x})\n\nactions = [a]\n",
    "def a(driver):\n    {x}\n\nactions = [a]\n",
    "def a(driver):\n    v = {x}\n\nactions = [a]\n",
    "{x}\n\nactions = []\n",
    "X = {x}\nactions = []\n",
    "def a(driver):\n    time.sleep(1)\n\nactions = [a, {x}]\n",
])


@settings(max_examples=300, deadline=None)
@given(placements, non_literals)
def test_random_non_literal_code_is_refused_cleanly(placement, expression) -> None:
    with pytest.raises(ActionsError):
        read_actions(HEADER + placement.format(x=expression), "random.py")


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_any_text_reads_or_is_refused_with_an_actions_error(text) -> None:
    with contextlib.suppress(ActionsError):
        read_actions(text, "random.py")
