"""`run`'s flags that only make sense together: refused with one line and exit 2 before
anything is planned or written."""

from __future__ import annotations

from tests.cli.test_cli import cli
from tests.conftest import SHIKAKU_SEEDS


def test_estimate_without_dry_run_is_refused(tmp_path):
    out = tmp_path / "out"
    p = cli("run", str(SHIKAKU_SEEDS[0]), "--formulation", "cpsat-cover", "--solver", "cpsat",
            "--estimate", str(tmp_path), "--out", str(out), "--time-limit", "5")
    assert p.returncode == 2, p.stdout
    assert p.stderr.strip().splitlines() == [
        "puzzlebench: --estimate needs --dry-run (it estimates the plan's time and runs "
        "nothing)"]
    assert not out.exists() and p.stdout == ""


def test_the_closing_overhead_line_is_the_reports(monkeypatch, capsys):
    """`run`'s closing line gives the overhead as the report does: an external package's
    one-time set-up apart (shown on a line of its own), the slowest solver's median per kind."""
    import pandas as pd

    import bench.run.storage
    from bench.cli.run import _run_summary
    from bench.report import overhead

    df = pd.DataFrame({
        "formulation": ["f"] * 6, "status": ["solved"] * 6, "instance": ["i"] * 6,
        "key": list("abcdef"), "message": [""] * 6,
        "kind": ["external"] * 3 + ["sat"] * 3,
        "solver": ["external"] * 3 + ["cadical195", "cadical195", "minisat22"],
        "start": ["fork"] * 6, "overshoot_s": [0.0] * 6,
        "overhead_s": [1.010, 1.036, 1.050, 0.010, 0.012, 0.020],
        "setup_s": [0.980, 1.000, 1.010, None, None, None]})
    monkeypatch.setattr(bench.run.storage, "load_results", lambda out: df)
    assert _run_summary("out", "out/results.parquet", []) == 0
    said = capsys.readouterr().out
    verdict = overhead.verdict(overhead.table(df))
    assert "external 36 ms" in verdict and "sat 20 ms" in verdict
    assert ("harness overhead per task (median, slowest solver per kind; one-time set-up "
            "apart): external 36.0 ms, sat 20.0 ms") in said
    assert "one-time set-up of an external package per task (median): external 1000.0 ms" \
        in said
