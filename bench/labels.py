"""Formulation variant labels and "formulation / solver" pair names: parsed forgivingly
(spaces ignored around ``/``, brackets, commas and ``=``), written one way, and unknown names
answered with the close matches (stdlib :mod:`difflib`)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any


def variant_label(name: str, params: dict[str, Any]) -> str:
    if not params:
        return name
    return name + "[" + ",".join(f"{k}={v}" for k, v in params.items()) + "]"


_LABEL = re.compile(r"^(?P<name>[^\[\]]+)(?:\[(?P<params>[^\[\]]*)\])?$")
#: the parameter part of a label that names the whole grid: ``sat-hybrid[*]``
EVERY = "*"


def parse_label(label: str) -> tuple[str, dict[str, str]]:
    """``"sat-cover[card=ladder]"`` -> ``("sat-cover", {"card": "ladder"})``; spaces around
    the name, the brackets, commas and ``=`` are ignored (``"sat-cover [ card = ladder ]"``).
    ``"NAME[*]"`` (every variant) is ``("NAME", {"*": "*"})``."""
    m = _LABEL.match(label.strip())
    if not m or not m["name"].strip():
        raise ValueError(f"malformed formulation name {label!r}")
    params: dict[str, str] = {}
    raw = (m["params"] or "").strip()
    if raw == EVERY:
        return m["name"].strip(), {EVERY: EVERY}
    for part in filter(None, (p.strip() for p in raw.split(","))):
        k, sep, v = part.partition("=")
        if not sep or not k.strip():
            raise ValueError(f"malformed parameter {part!r} in {label!r} (expected key=value)")
        if k.strip() in params:
            raise ValueError(f"parameter {k.strip()!r} given twice in {label!r}")
        params[k.strip()] = v.strip()
    return m["name"].strip(), params


def normal_label(label: str) -> str:
    """A label as the harness writes it (no spaces): ``"sat-cover [card = ladder]"`` ->
    ``"sat-cover[card=ladder]"``; a malformed one is returned stripped."""
    try:
        name, params = parse_label(label)
    except ValueError:
        return label.strip()
    if params == {EVERY: EVERY}:
        return f"{name}[{EVERY}]"
    return variant_label(name, params)


def normal_pair(pair: str) -> str:
    """A "formulation / solver" pair as the report writes it, from any spacing around ``/``
    and inside the label's brackets (``"sat-mine/cadical195"``)."""
    form, sep, solver = pair.rpartition("/")
    if not sep:
        return pair.strip()
    return f"{normal_label(form)} / {solver.strip()}"


def close_matches(word: str, known: Iterable[str], n: int = 3) -> str:
    """`` (did you mean a, b?)`` naming the known words closest to ``word`` (stdlib difflib's
    ratio), "" when none is close."""
    import difflib

    found = difflib.get_close_matches(word, sorted(set(known)), n=n, cutoff=0.6)
    return f" (did you mean {', '.join(found)}?)" if found else ""
