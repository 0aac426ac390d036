"""The two runs' machines, as ``puzzlebench compare`` says them (:mod:`bench.report.compare`):
their speed (each one's fastest calibration loop, :func:`bench.run.noise.speed`) and whether it
differs by more than :data:`bench.run.noise.SLOWER` either way, and each run whose machine was
disturbed during it (:func:`bench.report.machines.disturbances`). Only the invocations that ran
tasks count (:func:`bench.report.machines.measuring`). Two runs on the same machine (the same
host and machine type) whose loop differs ran under other loads, not on other machines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bench.identity import machine_id
from bench.report.units import duration, number


def _invocations(folder: str | Path) -> list[dict[str, Any]]:
    """The run's environment records of the invocations that ran tasks
    (:func:`bench.report.machines.measuring`); all of them where its results cannot be read."""
    import pandas as pd

    from bench.report.machines import measuring
    from bench.run.storage import load_environment, load_results

    records = load_environment(folder)
    try:
        results = load_results(folder)
    except Exception:  # a damaged table or journal: the records cannot be told apart
        results = pd.DataFrame()
    return measuring(records, results)


def _speed(records: list[dict[str, Any]]) -> float | None:
    """The fastest calibration loop of the records (:func:`bench.run.noise.speed`)."""
    from bench.run.noise import speed

    times = [s for r in records if (s := speed(r))]
    return min(times) if times else None


def same_machine(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> str:
    """The host both runs' records name, when every record of both that has a calibration
    names that one host and one machine type (:func:`bench.identity.machine_id`: CPU, cores,
    memory, Python); "" otherwise (other machines, or a record that does not say)."""
    timed = [r for r in [*a, *b] if isinstance(r.get("calibration"), dict)]
    hosts = {str(r.get("host") or "") for r in timed}
    kinds = {machine_id(r) for r in timed}
    if len(hosts) == 1 and len(kinds) == 1 and "" not in hosts | kinds:
        return hosts.pop()
    return ""


def machine_lines(run_a: str | Path, run_b: str | Path) -> tuple[list[str], str]:
    """Sentences on the two runs' machines: their speed (the fastest calibration loop of each
    run, :func:`bench.run.noise.speed`) and whether it differs by more than
    :data:`bench.run.noise.SLOWER` either way, with the factor (on the same machine
    (:func:`same_machine`): the load differed, not the machine); each run whose machine
    was disturbed (:func:`bench.report.machines.disturbances`) and why. And what differed:
    "load" (the speed, on the same machine), "machine" (the speed, on machines not known to
    be one) or "" (the speed did not differ, or is unknown)."""
    from bench.report.machines import disturbances
    from bench.run.noise import SLOWER

    env_a, env_b = _invocations(run_a), _invocations(run_b)
    sa, sb = _speed(env_a), _speed(env_b)
    lines: list[str] = []
    differs = ""
    if sa and sb:
        factor = sb / sa
        host = same_machine(env_a, env_b)
        if factor > SLOWER or factor < 1 / SLOWER:
            differs = "load" if host else "machine"
        if differs and host:
            which = (f"{number(factor)}x slower in B" if factor > 1
                     else f"{number(1 / factor)}x faster in B")
            lines.append(f"**The calibration loop differed on the same machine** (host "
                         f"{host}): it took {duration(sb)} in B against {duration(sa)} in A "
                         f"({which}): the machine's load differed between the runs, and time "
                         "changes of about that factor are the load's, not the code's.")
        elif differs:
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
        why = disturbances(env)
        if why:
            lines.append(f"**Run {name} was disturbed**: {'; '.join(why)}; its times are "
                         "slower than its machine's.")
    return lines, differs
