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


def test_an_instance_is_estimated_by_its_content_not_its_file_name(tmp_path):
    """A real run on ``a/p.txt``: the estimate takes its times for a renamed copy of the file
    (``c/q.txt``), and none for another file of the same name (``b/p.txt``) or for the file
    edited in place."""
    import shutil
    import subprocess
    import sys

    from bench.run.estimate import cost, measured
    from bench.run.plan import Selection, plan_tasks
    from tests.conftest import ROOT, SHIKAKU_SEEDS

    for sub, name, src in [("a", "p", 0), ("b", "p", 1), ("c", "q", 0)]:
        (tmp_path / sub).mkdir()
        shutil.copyfile(SHIKAKU_SEEDS[src], tmp_path / sub / f"{name}.txt")
    a = tmp_path / "a" / "p.txt"
    done = subprocess.run([sys.executable, "-m", "bench.cli", "run", str(a), "--formulation",
                           "cpsat-cover", "--solver", "cpsat", "--time-limit", "10", "--out",
                           str(tmp_path / "run")], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    known = measured([tmp_path / "run"])

    def known_tasks(path: object) -> int:
        plan = plan_tasks([str(path)], Selection((), ("cpsat-cover",), ("cpsat",)),
                          time_limit=10, memory_limit_mb=2000)
        return cost(plan, known).known

    assert known_tasks(a) == known_tasks(tmp_path / "c" / "q.txt") == 1
    assert known_tasks(tmp_path / "b" / "p.txt") == 0
    a.write_text(a.read_text() + "\n")  # edited in place: another content
    assert known_tasks(a) == 0
