"""Playwright on the system Chromium (Debian's ``chromium``; never ``playwright install``),
loading a report from ``file://`` as a reader's browser would: no
``--allow-file-access-from-files``, a fresh profile, no network, 1400 px wide."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

WIDTH, HEIGHT = 1400, 900
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run"]


def executable() -> str | None:
    """The system browser, or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def playwright_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright not installed (pip install -e '.[test]')"
    if executable() is None:
        return "no Chromium (apt-get install chromium; .ci/run installs it)"
    return None


@contextmanager
def browser() -> Iterator[Any]:
    """A browser context with a fresh user-data-dir; every page's console errors and uncaught
    exceptions are collected in ``context.errors``."""
    from playwright.sync_api import sync_playwright

    exe = executable()
    assert exe is not None
    with tempfile.TemporaryDirectory() as profile, sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=exe, headless=True, args=FLAGS,
            viewport={"width": WIDTH, "height": HEIGHT})
        ctx.errors = []

        def watch(page: Any) -> None:
            page.on("console", lambda m: ctx.errors.append(f"console {m.type}: {m.text}")
                    if m.type in ("error", "warning") else None)
            page.on("pageerror", lambda e: ctx.errors.append(f"uncaught: {e}"))
            page.on("requestfailed", lambda r: ctx.errors.append(f"failed: {r.url}"))

        ctx.on("page", watch)
        try:
            yield ctx
        finally:
            ctx.close()


#: a generous limit for loading a page: the checks are about errors, not speed (a 100,000-task
#: report on a loaded shared machine takes tens of seconds)
LOAD_TIMEOUT_MS = 240_000


def open_report(ctx: Any, folder: Path) -> Any:
    page = ctx.new_page()
    page.set_default_timeout(LOAD_TIMEOUT_MS)
    page.goto((folder / "index.html").resolve().as_uri(), wait_until="load")
    page.wait_for_function("document.querySelectorAll('table.dt').length === 0 || "
                           "document.querySelector('.dt-container') !== null")
    return page


def open_folds(page: Any) -> None:
    """Open every fold of the page and load its pictures now (not lazily), waiting until each
    has loaded: the layout is then settled for measuring or clicking."""
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true);"
                  "document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
    page.wait_for_load_state("load")
    # a table in a fold becomes interactive when the fold opens (DataTables marks it dataTable)
    page.wait_for_function("[...document.querySelectorAll('table.dt')]"
                           ".every(t => t.classList.contains('dataTable'))")
    page.wait_for_function("[...document.images].every(i => i.complete)")


OVERFLOW = """() => {
  const vw = document.documentElement.clientWidth;
  const clipped = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o !== 'visible') return true; } return false; };
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > vw + 1 || r.left < -1) && !clipped(el))
      over.push(el.tagName + (el.className ? '.' + el.className : '') + ' right=' + r.right);
  }
  return {over: over.slice(0, 20), pageWidth: document.documentElement.scrollWidth, vw};
}"""

BROKEN = """() => [...document.images].filter(i => i.loading !== 'lazy' || i.complete)
  .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src)"""
