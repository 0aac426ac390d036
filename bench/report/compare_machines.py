"""The two runs' machines, as ``puzzlebench compare`` says them (:mod:`bench.report.compare`):
their speed (each one's fastest calibration loop, :func:`bench.run.noise.speed`) and whether it
differs by more than :data:`bench.run.noise.SLOWER` either way, and each run whose machine was
disturbed during it (:func:`bench.run.noise.disturbance`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.report.units import duration, number


def _environment(folder: str | Path) -> dict[str, Any]:
    """The run's latest environment record that holds a calibration ({} if none)."""
    from bench.run.storage import load_environment

    recs = [r for r in load_environment(folder) if isinstance(r.get("calibration"), dict)]
    return recs[-1] if recs else {}


def machine_lines(run_a: str | Path, run_b: str | Path) -> tuple[list[str], bool]:
    """Sentences on the two runs' machines: their speed (the fastest calibration loop of each
    run, :func:`bench.run.noise.speed`) and whether it differs by more than
    :data:`bench.run.noise.SLOWER` either way, with the factor; each run whose machine
    was disturbed (:func:`bench.run.noise.disturbance`) and why. And whether the speed
    differs."""
    from bench.run.noise import SLOWER, disturbance, speed

    env_a, env_b = _environment(run_a), _environment(run_b)
    sa, sb = speed(env_a), speed(env_b)
    lines: list[str] = []
    differs = False
    if sa and sb:
        factor = sb / sa
        differs = factor > SLOWER or factor < 1 / SLOWER
        if differs:
            which = (f"B's machine was {number(factor)}x slower" if factor > 1
                     else f"B's machine was {number(1 / factor)}x faster")
            lines.append(f"**The machines differ in speed**: the calibration loop took "
                         f"{duration(sb)} in B against {duration(sa)} in A ({which}); time changes "
                         "of about that factor are the machine's, not the code's.")
        else:
            lines.append(f"Machine speed: the calibration loop took {duration(sa)} in A and "
                         f"{duration(sb)} in B (within {SLOWER:g}x).")
    else:
        lines.append("Machine speed: unknown (a run without a calibration figure).")
    for name, env in (("A", env_a), ("B", env_b)):
        why = disturbance(env)
        if why:
            lines.append(f"**Run {name} was disturbed**: {'; '.join(why)}; its times are "
                         "slower than its machine's.")
    return lines, differs
