"""A study's instructions in model prompts: a delimited block before the prompt in the families
whose wording is ours, and nothing added to the paper-exact ones."""

from __future__ import annotations

from playbench.app.agents.preamble import OPEN, preamble, with_instructions
from playbench.app.agents.protocols.base import Prompt, text_part


def test_the_block_goes_first_in_our_families_only():
    listed = Prompt([{"role": "user", "content": [text_part("Write the page.")]}])
    briefed = with_instructions(listed, "webui", "Be quick.")
    assert briefed.messages[0]["content"][0] == text_part(preamble("Be quick."))
    assert briefed.messages[0]["content"][1:] == listed.messages[0]["content"]
    assert listed.messages[0]["content"] == [text_part("Write the page.")]  # not edited

    plain = Prompt([{"role": "system", "content": "Rules."}, {"role": "user", "content": "Go"}])
    tools = with_instructions(plain, "tools", "Be quick.")
    assert tools.messages[0]["content"] == f"{OPEN}\nBe quick.\n" + \
        tools.messages[0]["content"].split("\n", 2)[2]
    assert tools.messages[0]["content"].endswith("\n\nRules.")
    assert tools.messages[1:] == plain.messages[1:]
    for family in ("ingvp", "magebench", "vwa"):
        assert with_instructions(plain, family, "Be quick.") is plain
    assert with_instructions(plain, "tools", "  \n") is plain
