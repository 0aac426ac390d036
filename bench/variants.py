"""A formulation's variants: every point of its parameter grid, the ones a run compares when
it names the formulation (its ``sweep``, the default first), and what ``puzzlebench list``
reports of each."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from bench.registry import Formulation


def variants(cls: type[Formulation]) -> list[Formulation]:
    """Every point of a formulation's parameter grid."""
    keys = list(cls.parameters)
    return [cls(**dict(zip(keys, vals, strict=True)))
            for vals in itertools.product(*(cls.parameters[k] for k in keys))]


def recommended(cls: type[Formulation]) -> list[Formulation]:
    """The variants a run compares when it names ``cls`` (its ``sweep``), default first."""
    if cls.sweep is None:
        return variants(cls)
    keys = list(cls.sweep)
    out = [cls(**dict(zip(keys, vals, strict=True)))
           for vals in itertools.product(*(cls.sweep[k] for k in keys))]
    default = cls()
    rest = [v for v in out if v.params != default.params]
    return [default, *rest]


_recommended: dict[type[Formulation], frozenset[str]] = {}


def recommended_labels(cls: type[Formulation]) -> frozenset[str]:
    """The labels of :func:`recommended` (cached per class)."""
    if cls not in _recommended:
        _recommended[cls] = frozenset(v.label for v in recommended(cls))
    return _recommended[cls]


@dataclass(frozen=True)
class VariantInfo:
    """What `puzzlebench list` reports per variant."""

    label: str
    exact: bool
    lazy: bool
    #: in the formulation's ``sweep`` (run when the formulation is named)
    recommended: bool = True


def variant_info(cls: type[Formulation]) -> list[VariantInfo]:
    swept = {v.label for v in recommended(cls)}
    return [VariantInfo(v.label, v.is_exact(), v.is_lazy(), v.label in swept)
            for v in variants(cls)]
