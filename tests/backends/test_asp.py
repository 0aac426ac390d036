"""The clingo backend on real programs in real files: answers, blocks grounded into the live
solver, infeasibility, the time limit, effort counters; whether a seed alone changes clasp's
search; and that an ASP task's template imports clingo and none of the other kinds' solvers."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bench.backends import SolveOptions, get_backend
from bench.backends.kinds import AspAnswer, AspModel, asp_atom, asp_term
from bench.instance import read_instance
from bench.registry import get_formulation
from tests.conftest import INSTANCES, ROOT

CHOICE = """
{ pick(X) : item(X) } = 1.
#show pick/1.
"""

#: 13 pigeons in 12 holes: unsatisfiable, and exponential for the resolution clasp does
PIGEONS = """
pigeon(1..13). hole(1..12).
1 { in(P,H) : hole(H) } 1 :- pigeon(P).
:- in(P,H), in(Q,H), P < Q.
"""


def model_of(tmp_path: Path, text: str, *facts: str) -> AspModel:
    lp = tmp_path / "program.lp"
    lp.write_text(text)
    model = AspModel.new(lp)
    model.facts.extend(facts)
    return model


def test_blocks_are_grounded_into_the_live_solver_until_none_is_left(tmp_path):
    model = model_of(tmp_path, CHOICE, "item(a).", "item(b).", "item(c).")
    session = get_backend("clingo").start(model, SolveOptions())
    seen = []
    for _ in range(3):
        out = session.solve(10.0)
        assert out.status == "sat"
        assert isinstance(out.value, AspAnswer)
        (picked,) = out.value.atoms("pick")
        assert out.value(("pick", *picked)) == 1.0
        seen.append(picked[0])
        model.forbid([("pick", picked)])
    assert sorted(seen) == ["a", "b", "c"]
    out = session.solve(10.0)
    assert out.status == "infeasible" and out.value is None
    assert session.fed == 3  # three blocks, each grounded once
    assert {"decisions", "conflicts", "rules", "atoms"} <= set(out.stats)
    assert model.size()["variables"] > 0  # the ground program's atoms, once grounded


def test_post_infeasible_makes_any_program_infeasible(tmp_path):
    model = model_of(tmp_path, CHOICE, "item(a).")
    model.post_infeasible()
    out = get_backend("clingo").start(model, SolveOptions()).solve(10.0)
    assert out.status == "infeasible"


def test_the_search_stops_at_the_time_limit(tmp_path):
    model = model_of(tmp_path, PIGEONS)
    t0 = time.perf_counter()
    out = get_backend("clingo").start(model, SolveOptions()).solve(0.5)
    took = time.perf_counter() - t0
    assert out.status == "timeout" and out.value is None
    assert took < 3.0
    assert out.stats["conflicts"] > 0


def test_a_missing_program_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"missing\.lp"):
        AspModel.new(tmp_path / "missing.lp")


def test_terms_are_written_as_clingo_reads_them():
    assert asp_atom("val", 1, "white", "#") == 'val(1,white,"#")'
    assert asp_term('a "b"') == '"a \\"b\\""'
    assert asp_atom("flag") == "flag"
    with pytest.raises(TypeError):
        asp_term(True)


def _choices(args: list[str]) -> float:
    """clasp's choices on the generated 10x10 Nurikabe under the ASP formulation."""
    import clingo

    inst = read_instance(INSTANCES / "nurikabe" / "gen-nurikabe-10x10-s1-0.txt")
    model = get_formulation("nurikabe", "asp-reach", ["asp"]).build(inst)
    ctl = clingo.Control(["--models=1", *args])
    for p in model.programs:
        ctl.load(str(p))
    ctl.add("base", [], "\n".join(model.facts))
    ctl.ground([("base", [])])
    assert ctl.solve().satisfiable
    return float(ctl.statistics["solving"]["solvers"]["choices"])


def test_a_seed_alone_does_not_change_clasps_search_a_random_heuristic_does():
    """Why the backend passes no seed: without a randomising option clasp's search is the same
    for every seed (so ASP is deterministic, like GLPK); with random sign choices it is not."""
    plain = {_choices([f"--seed={s}"]) for s in range(4)}
    assert len(plain) == 1
    rnd = {_choices([f"--seed={s}", "--sign-def=rnd", "--rand-freq=0.05"]) for s in range(4)}
    assert len(rnd) > 1


def test_an_asp_template_imports_clingo_and_no_other_kinds_solver():
    code = (
        "import json, sys\n"
        "from bench.run.pool import preload_modules\n"
        "from bench.run.forkserver import preload\n"
        "preload(preload_modules(['asp']))\n"
        "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       timeout=120)
    loaded = set(json.loads(p.stdout.strip().splitlines()[-1]))
    assert "clingo" in loaded
    assert loaded.isdisjoint({"pyomo", "ortools", "pysat", "highspy", "pyscipopt"}), loaded


def test_the_ground_size_is_the_programs_and_each_call_counts_the_rules_its_step_added(tmp_path):
    """clasp's ``problem.lp`` statistics are the whole program grounded so far: after blocks,
    the model's size is that program's (not the sum over the steps), and the ``rules`` and
    ``atoms`` of the calls add up to it."""
    model = model_of(tmp_path, CHOICE, *(f"item({i})." for i in range(30)))
    session = get_backend("clingo").start(model, SolveOptions())
    calls = []
    for _ in range(4):
        out = session.solve(10.0)
        assert out.status == "sat" and isinstance(out.value, AspAnswer)
        calls.append(out.stats)
        model.forbid([("pick", out.value.atoms("pick")[0])])
    lp = session.ctl.statistics["problem"]["lp"]
    assert model.size() == {"variables": int(lp["atoms"]), "constraints": int(lp["rules"])}
    assert sum(c["rules"] for c in calls) == lp["rules"]
    assert sum(c["atoms"] for c in calls) == lp["atoms"]
    assert all(c["rules"] >= 1 for c in calls[1:])  # each block is at least one rule
    assert calls[1]["rules"] < calls[0]["rules"]
