"""The machine a result ran on, as its identity names it (:mod:`bench.identity`): the CPU
model, the logical cores, the memory and the Python version (:data:`MACHINE_FIELDS`, result
columns), and a short name of that machine type (:func:`machine_id`)."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import platform
from pathlib import Path
from typing import Any

#: the machine parts of an identity, as result columns
MACHINE_FIELDS = ("cpu", "cores", "memory_gb", "python")


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


@functools.cache
def machine() -> dict[str, Any]:
    """This machine as an identity sees it: CPU model, logical cores, memory (GB, 0.1) and
    the Python version."""
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return {"cpu": cpu_model(), "cores": os.cpu_count() or 0, "memory_gb": round(memory, 1),
            "python": platform.python_version()}


def _machine(parts: dict[str, Any]) -> dict[str, Any]:
    """The machine fields of a record, normalised (a table's NaN or 2.0 cores read as a
    result's "" or 2); "" for each one missing."""
    out: dict[str, Any] = {}
    for k in MACHINE_FIELDS:
        v = parts.get(k)
        if v is None or v == "" or (isinstance(v, float) and v != v) or v == 0:
            out[k] = ""
        elif k == "cores":
            out[k] = int(v)
        elif k == "memory_gb":
            out[k] = round(float(v), 1)
        else:
            out[k] = str(v)
    return out


def machine_id(parts: dict[str, Any]) -> str:
    """A short name of a machine type (its :data:`MACHINE_FIELDS`); "" when none is known."""
    m = _machine(parts)
    return "m-" + _sha(m)[:8] if any(m.values()) else ""


def machine_label(parts: dict[str, Any]) -> str:
    """``CPU, N cores, X GB, Python V`` (``unknown machine`` for a result without them)."""
    m = _machine(parts)
    if not any(m.values()):
        return "unknown machine"
    return (f"{m['cpu'] or '?'}, {m['cores'] or '?'} cores, {m['memory_gb'] or '?'} GB, "
            f"Python {m['python'] or '?'}")


def _sha(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()
