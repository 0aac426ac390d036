"""The names of the files a report writes beside ``index.html``, from names read from a run.

A puzzle, instance or machine name in a journal, a Parquet table or an instance header is data,
never a path: a name made only of ASCII letters, digits, ``.``, ``_`` and ``-`` (not starting
with ``.``, at most :data:`MAX_STEM` characters) is used as it is; any other becomes a slug (each
run of other characters one ``_``) plus the first 8 hex digits of the SHA-256 of the name, so two
names that slug alike stay apart. The result is always one file name inside the report folder.
"""

from __future__ import annotations

import hashlib
import re

#: the longest file name stem used as it is (a file system allows 255 bytes per name)
MAX_STEM = 120
_PLAIN = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]*")
_OTHER = re.compile(r"[^A-Za-z0-9._-]+")


def file_name(*parts: str, suffix: str) -> str:
    """The file name of ``parts`` joined by ``-``, with ``suffix`` (".png"), safe to join to
    the report folder (see the module text)."""
    stem = "-".join(parts)
    if _PLAIN.fullmatch(stem) and len(stem) <= MAX_STEM:
        return stem + suffix
    slug = _OTHER.sub("_", stem).strip("._")[:MAX_STEM - 9] or "x"
    digest = hashlib.sha256(stem.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}-{digest}{suffix}"
