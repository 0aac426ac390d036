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


def test_the_dry_run_labels_the_tasks_of_no_tier_untiered():
    """Tasks planned from instance paths (no suite tier) are counted under a named label in
    the per-puzzle tier breakdown, not a bare dash."""
    from bench.run.estimate import describe
    from bench.run.plan import make_plan
    from tests.conftest import SHIKAKU_SEEDS

    planned = make_plan(None, [str(p) for p in SHIKAKU_SEEDS[:3]], formulations=["cpsat-cover"],
                        solvers=["cpsat"], time_limit=10.0)
    n = len(planned.plan.tasks)
    first = describe(planned.plan, jobs=1).splitlines()[0]
    assert first.startswith(f"shikaku: {n} tasks (untiered {n}), 1 pairs"), first
