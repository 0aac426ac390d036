"""A MIP solver that runs out of memory is a memout: CBC's ``std::bad_alloc`` (printed before
a stack trace, whose last line used to be the message) raises MemoryError, which the task
records as ``memout``. Real cbc processes under a real RLIMIT_DATA."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from bench.backends.lpfile import out_of_memory
from tests.conftest import INSTANCES, ROOT

SPARSE = INSTANCES / "nurikabe" / "sparse" / "gen-nurikabe-50x50-s1-0.txt"


def test_cbc_out_of_memory_in_its_model_is_a_memory_error():
    # the model built, then 100 MB more for Pyomo's LP file and cbc (which inherits the
    # limit): enough for cbc's BLAS buffers, not for this model
    p = subprocess.run([sys.executable, "-m", "tests.backends.oom_solve", str(SPARSE),
                        "mip-flow", "cbc", "100"], capture_output=True, text=True, cwd=ROOT,
                       env={**os.environ, "OPENBLAS_NUM_THREADS": "1"}, timeout=300)
    out = p.stdout.strip().splitlines()[-1]
    assert out.startswith("memout: cbc ran out of memory"), out


def test_out_of_memory_finds_the_line_before_a_stack_trace():
    text = ("terminate called after throwing an instance of 'std::bad_alloc'\n"
            "  what():  std::bad_alloc\n\nERROR while running Cbc. Signal SIGABRT caught.\n"
            "/lib/libCbc.so.0(_Z15CbcCrashHandleri+0x126) [0x7f5460f6b9d6]\n")
    assert "std::bad_alloc" in out_of_memory(text)
    assert out_of_memory("Cbc0001I Search completed\n") == ""


@pytest.mark.slow
def test_highs_memory_limit_is_a_memout():
    """The fault probe's command: HiGHS reports kMemoryLimit under the task's 200 MB."""
    p = subprocess.run([sys.executable, "-m", "bench.cli", "solve", str(SPARSE), "--formulation",
                        "mip-flow", "--solver", "highs", "--memory-limit", "200", "--time-limit",
                        "60", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    out = json.loads(p.stdout)
    assert out["status"] == "memout", out
