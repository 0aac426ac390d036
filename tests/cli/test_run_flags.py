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
