"""CP-SAT helpers shared by the Shakashaka CP-SAT formulations (imported only by cpsat modules)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from bench.instance import Instance
from formulations.shakashaka._local import Lit, keys


def quarter_literals(cp: Any, inst: Instance, clauses: Iterable[list[Lit]]) -> dict[Any, Any]:
    """A Boolean per quarter and white key of every open cell, with ``clauses`` (lists of
    ``(key, positive)``) posted as ``bool_or``s; the literals by key."""
    lit = {key: cp.new_bool_var(str(key)) for key in keys(inst)}
    for clause in clauses:
        cp.add_bool_or([lit[k] if pos else ~lit[k] for k, pos in clause])
    return lit
