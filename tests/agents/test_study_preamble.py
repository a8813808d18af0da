"""A study's instructions in model prompts: a delimited block before the prompt in the families
whose wording is ours, and nothing added to the paper-exact ones."""

from __future__ import annotations

from playbench.app.agents.preamble import OPEN, preamble, with_instructions
from playbench.app.agents.protocols import make_protocols
from playbench.app.agents.protocols.base import Prompt, text_part


def test_the_block_goes_first_in_our_families_only():
    listed = Prompt([{"role": "user", "content": [text_part("Write the page.")]}])
    briefed = with_instructions(listed, True, "Be quick.")
    assert briefed.messages[0]["content"][0] == text_part(preamble("Be quick."))
    assert briefed.messages[0]["content"][1:] == listed.messages[0]["content"]
    assert listed.messages[0]["content"] == [text_part("Write the page.")]  # not edited

    plain = Prompt([{"role": "system", "content": "Rules."}, {"role": "user", "content": "Go"}])
    tools = with_instructions(plain, True, "Be quick.")
    assert tools.messages[0]["content"] == f"{OPEN}\nBe quick.\n" + \
        tools.messages[0]["content"].split("\n", 2)[2]
    assert tools.messages[0]["content"].endswith("\n\nRules.")
    assert tools.messages[1:] == plain.messages[1:]
    assert with_instructions(plain, False, "Be quick.") is plain
    assert with_instructions(plain, True, "  \n") is plain


def test_only_the_families_in_our_wording_take_the_block():
    """docs/studies.md's table: tools and webui are ours; ING-VP, MageBench and VWA stay as
    the papers wrote them."""
    protocols = make_protocols()
    takes = {name for name, p in protocols.items() if p.takes_study_instructions}
    assert takes == {"tools", "webui"}
    assert {"ingvp", "magebench", "vwa"} <= set(protocols) - takes
