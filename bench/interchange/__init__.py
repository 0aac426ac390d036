"""Deprecated name of :mod:`bench.convert` (the converters of other tools' formats), kept
until 0.3: importing it warns, ``bench.interchange.<module>`` is ``bench.convert.<module>``
and ``InterchangeError`` is :class:`~bench.convert.pzpr.common.ConversionError`.

"Interchange" names one thing, the instance file format of ``docs/formats.md``
(:mod:`bench.instance`); this package never held it."""

from __future__ import annotations

import importlib
import pkgutil
import sys
import warnings
from types import ModuleType
from typing import Any

import bench.convert
from bench.convert.pzpr.common import ConversionError

#: the old name of :class:`~bench.convert.pzpr.common.ConversionError`
OLD_ERROR = "InterchangeError"
OLD, NEW = __name__, bench.convert.__name__

warnings.warn(f"{OLD} is renamed {NEW} (the old name works until 0.3)", DeprecationWarning,
              stacklevel=2)


class _Alias(ModuleType):
    """``bench.interchange.<module>``: every attribute is that of ``bench.convert.<module>``,
    and ``InterchangeError`` is ``ConversionError``."""

    def __init__(self, name: str, target: ModuleType) -> None:
        super().__init__(name, target.__doc__)
        self.__target = target

    def __getattr__(self, attr: str) -> Any:
        if attr == OLD_ERROR:
            return ConversionError
        return getattr(self.__target, attr)


def __getattr__(attr: str) -> Any:
    if attr == OLD_ERROR:
        return ConversionError
    return getattr(bench.convert, attr)


for _info in pkgutil.walk_packages(bench.convert.__path__, f"{NEW}."):
    _old = OLD + _info.name[len(NEW):]
    sys.modules[_old] = _Alias(_old, importlib.import_module(_info.name))
    if _old.count(".") == OLD.count(".") + 1:
        globals()[_old.rsplit(".", 1)[1]] = sys.modules[_old]
