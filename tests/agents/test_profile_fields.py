"""Issue 31: a model profile is held to a typed model (app/agents/profile_fields.py): any value in
any field gives a profile or a ProfileError naming that field; text fields the hand checks never
looked at (label, tool_choice, prompt_dir) are held to their types too."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from playbench.app.agents.profile_fields import ProfileFields
from playbench.app.agents.profiles import ModelProfile, ProfileError

GOOD = dict(name="p", base_url="http://h/v1", model="m")
VALUES = st.none() | st.booleans() | st.integers(-10, 10 ** 6) | \
    st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10) | \
    st.dictionaries(st.text(max_size=4), st.integers() | st.text(max_size=4), max_size=2)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from([f for f in ProfileFields.model_fields if f != "name"]), VALUES)
def test_any_value_in_any_field_gives_a_profile_or_names_a_field(field, value):
    try:
        profile = ModelProfile(**{**GOOD, field: value})
    except ProfileError as err:
        assert str(err).startswith("model profile 'p': field '"), str(err)
        return
    assert ProfileFields.model_validate({**GOOD, field: getattr(profile, field)})


@pytest.mark.parametrize("field,value", [("label", 5), ("tool_choice", ["auto"]),
                                         ("prompt_dir", 3), ("api_version", 2024)])
def test_text_fields_hold_text(field, value):
    with pytest.raises(ProfileError, match=f"field '{field}'"):
        ModelProfile(**{**GOOD, field: value})
