"""``run --executor dask --scheduler ADDRESS`` on bad input: an address Dask cannot parse is one
line and exit 2 before the run folder is made (it was a traceback from the connection), and a
scheduler that cannot be reached is said as such, not as a run folder that "cannot be
written"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import INSTANCES, ROOT

pytest.importorskip("distributed")

TASK = (str(INSTANCES / "shikaku" / "gen-shikaku-5x5-s1-0.txt"), "--formulation",
        "cpsat-cover", "--solver", "cpsat", "--time-limit", "5", "--executor", "dask")


def cli(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "bench.cli", *args], capture_output=True,
                          text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT), **env}, timeout=300)


@pytest.mark.parametrize(("address", "why"), [
    ("nonsense", "missing port number in address 'nonsense'"),
    ("tcp://host", "missing port number in address 'host'"),
    ("foo://host:1", "unknown address scheme 'foo'"),
    ("tcp://host:0", "no host, or port 0 is not 1 .. 65535"),
    ("tcp://:8786", "no host, or port 8786 is not 1 .. 65535"),
])
def test_a_scheduler_address_dask_cannot_parse_is_one_line(tmp_path: Path, address, why):
    p = cli("run", *TASK, "--scheduler", address, "--out", str(tmp_path / "r"))
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.startswith(f"puzzlebench: --scheduler {address!r} is no Dask scheduler "
                               f"address ({why}"), p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert not (tmp_path / "r").exists()


def test_a_scheduler_that_cannot_be_reached_is_said_so(tmp_path: Path):
    p = cli("run", *TASK, "--scheduler", "tcp://127.0.0.1:1", "--out", str(tmp_path / "r"),
            DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT="2s")
    assert (p.returncode, p.stdout) == (2, ""), p.stderr
    assert p.stderr.startswith("puzzlebench: the Dask cluster (tcp://127.0.0.1:1) failed: "), \
        p.stderr
    assert "cannot write" not in p.stderr and p.stderr.count("\n") == 1
