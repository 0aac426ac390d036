"""Headless Chromium checks of a report page, without a DevTools client: a probe script is put
at the top of a copy of the page; it records console errors and uncaught errors, opens every
<details>, and after load writes into the DOM which images failed and which elements overflow
the page; ``--dump-dom`` returns that DOM. A second call takes the screenshot."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

WIDTH, HEIGHT = 1280, 900

PROBE = """<script>
window.__errors = [];
window.addEventListener('error', e => __errors.push('error: ' + (e.message ||
  (e.target && (e.target.src || e.target.href)) || 'unknown')), true);
for (const k of ['error', 'warn']) { const f = console[k];
  console[k] = (...a) => { __errors.push(k + ': ' + a.join(' ')); f.apply(console, a); }; }
window.addEventListener('load', () => {
  const closedHeight = document.documentElement.scrollHeight;  // as a reader first sees it
  document.querySelectorAll('details').forEach(d => d.open = true);
  const vw = document.documentElement.clientWidth;
  const clipped = el => { for (let p = el.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowX; if (o !== 'visible') return true; } return false; };
  const over = [];
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width && (r.right > vw + 1 || r.left < -1) && !clipped(el))
      over.push(el.tagName + (el.className ? '.' + el.className : '') + ' right=' + r.right);
  }
  const imgs = [...document.images];
  const res = {errors: __errors, overflow: over.slice(0, 20), images: imgs.length,
    broken: imgs.filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src),
    pageWidth: document.documentElement.scrollWidth, viewport: vw, closedHeight};
  const pre = document.createElement('pre'); pre.id = '__probe';
  pre.textContent = JSON.stringify(res); document.documentElement.appendChild(pre);
});
</script>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _flags(exe: str) -> list[str]:
    return [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--allow-file-access-from-files", f"--window-size={WIDTH},{HEIGHT}",
            "--virtual-time-budget=10000"]


def probe(page: Path, exe: str) -> dict[str, object]:
    """Load a probed copy of ``page`` (beside it, so relative images resolve)."""
    probed = page.with_name("__probe.html")
    text = page.read_text(encoding="utf-8")
    probed.write_text(text.replace("<head>", "<head>" + PROBE, 1), encoding="utf-8")
    try:
        p = subprocess.run([*_flags(exe), "--dump-dom", probed.as_uri()], capture_output=True,
                           text=True, timeout=120)
    finally:
        probed.unlink()
    m = re.search(r'<pre id="__probe">(.*?)</pre>', p.stdout, re.S)
    if not m:
        raise AssertionError(f"probe did not run: rc={p.returncode} {p.stderr[-2000:]}")
    import html

    return dict(json.loads(html.unescape(m.group(1))))


def screenshot(page: Path, exe: str, png: Path) -> Path:
    subprocess.run([*_flags(exe), f"--screenshot={png}", page.as_uri()], capture_output=True,
                   timeout=120, check=False)
    return png
