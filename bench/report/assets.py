"""The page's script and style, inlined once into ``index.html`` so the report folder works
from ``file://`` with no network.

Interactive tables are DataTables 2 (MIT licence, SpryMedia Ltd) with its Buttons extension,
from the offline bundle that the ``itables`` package ships (``itables/html/dt_bundle.js``, an
ES module; its licence headers are kept in it). The bundle is inlined as a module script whose
``export`` statement is turned into ``window.pbDT`` (an inline module cannot be imported), and
the page's own code (``templates/page.js``) runs after it from ``window.pbDT``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

_EXPORT = re.compile(r"export\s*\{([^}]*)\}\s*;?\s*$")


class AssetError(RuntimeError):
    """The DataTables bundle of the installed itables is missing or not in the known form."""


@dataclass(frozen=True)
class Assets:
    table_js: str  # the DataTables bundle, exposing window.pbDT
    table_css: str
    page_js: str
    page_css: str


def _bundle() -> tuple[str, str]:
    try:
        root = resources.files("itables") / "html"
        js = (root / "dt_bundle.js").read_text(encoding="utf-8")
        css = (root / "dt_bundle.css").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError) as e:
        raise AssetError(f"itables' offline DataTables bundle not found ({e}); "
                         "pip install itables") from e
    return js, css


def expose(js: str) -> str:
    """Turn the bundle's final ``export { a as B, ... }`` into ``window.pbDT = {B: a, ...}``."""
    tail = js.rstrip()
    # the licence comments follow the export statement; find the last export before them
    at = tail.rfind("export{")
    if at < 0:
        at = tail.rfind("export {")
    m = _EXPORT.match(tail[at:].split("\n", 1)[0]) if at >= 0 else None
    if m is None:
        raise AssetError("itables' dt_bundle.js has no final export statement")
    names = []
    for part in m.group(1).split(","):
        local, _, exported = part.strip().partition(" as ")
        names.append(f"{(exported or local).strip()!r}: {local.strip()}")
    line = tail[at:].split("\n", 1)
    rest = line[1] if len(line) > 1 else ""
    return tail[:at] + "window.pbDT = {" + ", ".join(names) + "};\n" + rest + "\n"


def load() -> Assets:
    js, css = _bundle()
    own = resources.files("bench.report") / "templates"
    if "</script" in js.lower() or "</style" in css.lower():
        raise AssetError("itables' bundle would close its own inline element")
    return Assets(expose(js), css, (own / "page.js").read_text(encoding="utf-8"),
                  (own / "page.css").read_text(encoding="utf-8"))
