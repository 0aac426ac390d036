"""The dry run's estimate from earlier runs (:mod:`bench.run.estimate`): reading their labels."""

from __future__ import annotations


def test_an_earlier_label_takes_the_defaults_of_parameters_added_since():
    """A run written before a formulation gained a parameter names its variant without it: the
    estimate reads it as the variant with that parameter's default (which keeps the measured
    behaviour), so the plan's task still finds its earlier time; an unreadable label stays."""
    from bench.registry import get_formulation
    from bench.run.estimate import current_label

    full = get_formulation("nurikabe", "sat-propagate").label
    name, _, rest = full.partition("[")
    params = rest.rstrip("]").split(",")
    assert len(params) >= 2  # the test needs a parameter to drop
    older = f"{name}[{','.join(params[:-1])}]"
    assert older != full and current_label("nurikabe", older) == full
    assert current_label("nurikabe", "no-such-formulation[x=1]") == "no-such-formulation[x=1]"
