"""Suites: named, versioned instance lists in ``instances/suites.toml``."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path


def project_root() -> Path:
    """The folder holding ``instances/``: $PUZZLEBENCH_ROOT, the source checkout, or the cwd."""
    env = os.environ.get("PUZZLEBENCH_ROOT")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    return here if (here / "instances").is_dir() else Path.cwd()


def instances_dir() -> Path:
    return project_root() / "instances"


@dataclass(frozen=True)
class Suite:
    name: str
    version: int
    description: str
    time_limit: float
    patterns: tuple[str, ...]
    #: the formulation selection a run of this suite uses when `--formulation` is not given
    #: (names or labels, as `--formulation` takes them); empty: every variant
    formulations: tuple[str, ...] = ()

    def instances(self) -> list[str]:
        """Instance paths, relative to the cwd when inside it, in a stable order."""
        base = instances_dir()
        out: list[str] = []
        for pattern in self.patterns:
            matches = sorted(base.glob(pattern))
            if not matches:
                raise FileNotFoundError(f"suite {self.name}: no instance matches {pattern!r}")
            out += [_display(p) for p in matches if _display(p) not in out]
        return out


def _display(p: Path) -> str:
    try:
        return str(p.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(p.resolve())


def load_suites(path: Path | None = None) -> dict[str, Suite]:
    path = path or instances_dir() / "suites.toml"
    data = tomllib.loads(path.read_text())
    return {
        name: Suite(
            name=name,
            version=int(s.get("version", 1)),
            description=str(s.get("description", "")),
            time_limit=float(s.get("time_limit", 60)),
            patterns=tuple(s["instances"]),
            formulations=tuple(s.get("formulations", ())),
        )
        for name, s in data.items()
    }


def get_suite(name: str) -> Suite:
    suites = load_suites()
    if name not in suites:
        raise KeyError(f"unknown suite {name!r} (known: {', '.join(suites)})")
    return suites[name]
