"""The model kinds a formulation builds (the public face of :mod:`bench.backends.kinds`).

Build a model with the kind's typed constructor: ``MipModel.new()``, ``CpsatModel.new()``,
``SatModel()``, ``AspModel.new(*lp_files)``, ``ExternalModel.new(run)`` or ``CpmpyModel.new()``
(one per kind);
``model.post_infeasible()`` states that an
instance has no solution. Formulations keep whatever handles they need in ``handles``;
``decode`` reads solver values through a ``Value`` callable so it reads the same for every
backend of a kind.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from bench.backends.kinds import (
    KINDS,
    AspModel,
    CpmpyModel,
    CpsatModel,
    MipModel,
    Model,
    ModelKind,
    SatModel,
    Value,
)
from bench.backends.kinds import ExternalModel as ExternalModel

__all__ = ["KINDS", "AspModel", "CpmpyModel", "CpsatModel", "ExternalModel", "MipModel", "Model",
           "ModelKind", "SatModel", "Value", "lazy_module"]


def lazy_module(name: str) -> Any:
    """The module ``name``, loaded at its first attribute access (stdlib ``LazyLoader``).

    Formulation modules bind their modelling layer this way (``pyo =
    lazy_module("pyomo.environ")``) so that importing them to read the plugin table
    (``puzzlebench list``) does not load Pyomo or OR-tools (and the pandas OR-tools imports);
    a task that builds a model loads the real module on first use, and a module already
    imported is returned as it is."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
