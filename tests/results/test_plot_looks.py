"""Participant looks in the result plots: past the fixed palettes every participant still gets
a colour of its own, and no person shares a colour with a model."""

from __future__ import annotations

from playbench.app.results.plot_looks import MODEL_COLOURS, PEOPLE_COLOURS, looks


def test_many_people_and_models_all_differ():
    people = [("human", f"p{i:02d}") for i in range(len(PEOPLE_COLOURS) * 3)]
    models = [("model", f"m{i}") for i in range(len(MODEL_COLOURS) + 2)]
    given = looks([*people, *models, people[0]])  # a repeat keeps its first look
    assert len(given) == len(people) + len(models)
    person_colours = {given[p].colour for p in people}
    model_colours = {given[m].colour for m in models}
    assert len(person_colours) == len(people) and len(model_colours) == len(models)
    assert not person_colours & model_colours
    assert {(given[p].marker, given[p].hatch) for p in people} == {("o", "")}
    assert {(given[m].marker, given[m].hatch) for m in models} == {("s", "//")}
    # the same order gives the same looks (the two plots agree on a participant's colour)
    assert looks([*people, *models]) == given
