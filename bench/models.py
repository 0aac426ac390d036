"""The model kinds a formulation builds (the public face of :mod:`bench.backends.kinds`).

Build a model with the kind's typed constructor: ``MipModel.new()``, ``CpsatModel.new()`` or
``SatModel()``; ``model.post_infeasible()`` states that an instance has no solution. Formulations
keep whatever handles they need in ``handles``; ``decode`` reads solver values through a
``Value`` callable so it reads the same for every backend of a kind.
"""

from __future__ import annotations

from typing import Any

from bench.backends.kinds import (
    KINDS,
    CpsatModel,
    MipModel,
    Model,
    ModelKind,
    SatModel,
    Value,
)

__all__ = ["KINDS", "CpsatModel", "MipModel", "Model", "ModelKind", "SatModel", "Value",
           "add_false_row", "new_model"]


def new_model(kind: ModelKind) -> Model:
    """An empty model of the given kind (untyped; prefer the kind's own constructor)."""
    if kind == "mip":
        return MipModel.new()
    if kind == "cpsat":
        return CpsatModel.new()
    return SatModel()


def add_false_row(model: Any, name: str = "no_solution") -> None:
    """Kept for formulations written before ``MipModel.post_infeasible``: the same row on a
    bare Pyomo model."""
    MipModel(model).post_infeasible(name)
