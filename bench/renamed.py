"""Old names kept for one release: a method a subclass still defines under its old name is
installed under the new one as an :class:`Alias`, and the base class's old-name method reaches
the real implementation through :func:`implementation` (used by :class:`bench.puzzles.base.Puzzle`
and :class:`bench.generate.Generator`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast


class Alias:
    """A method a subclass defined under its old name, installed under the new one: it behaves
    as the method, and :func:`implementation` knows it is not an implementation of its own."""

    def __init__(self, func: Callable[..., Any]) -> None:
        self.func = func

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return self.func.__get__(obj, owner)


def implementation(obj: object, new: str) -> Callable[..., Any]:
    """``obj``'s method ``new`` as its classes implement it under the new name, skipping the
    aliases of old names: an old name's base method calls this, so a plugin that overrides the
    old name of a built-in puzzle and calls ``super()`` reaches the built-in's implementation
    instead of its own alias (and itself) again."""
    for klass in type(obj).__mro__:
        found = vars(klass).get(new)
        if found is not None and not isinstance(found, Alias):
            return cast(Callable[..., Any], found.__get__(obj, type(obj)))
    raise AttributeError(new)
