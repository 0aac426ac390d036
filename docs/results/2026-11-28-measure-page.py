"""Measure a report page in headless Chromium as a reader opens it: folder size, first
contentful paint, time to the first interactive table, page height with every fold closed and
opened, and console errors. Usage, from the repository root:
``python docs/results/2026-11-28-measure-page.py reports/RUN``."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from tests.report.page import browser

report = Path(sys.argv[1]).resolve()
print("folder bytes", sum(p.stat().st_size for p in report.rglob("*") if p.is_file()))
with browser() as ctx:
    for i in range(3):
        page = ctx.new_page()
        t0 = time.perf_counter()
        page.goto(report.joinpath("index.html").as_uri())
        fcp = page.evaluate("() => (performance.getEntriesByName('first-contentful-paint')[0]"
                            " || {}).startTime")
        page.wait_for_function("() => document.querySelectorAll('table.dataTable').length > 0",
                               timeout=60000)
        ready = time.perf_counter() - t0
        closed = page.evaluate("() => document.documentElement.scrollHeight")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        opened = page.evaluate("() => document.documentElement.scrollHeight")
        wide = page.evaluate("() => document.documentElement.scrollWidth")
        print(f"load {i}: first contentful paint {fcp:.0f} ms, first table ready {ready:.2f} s, "
              f"height closed {closed} px, open {opened} px, scroll width {wide} px")
        page.close()
    print("console errors:", ctx.errors)
