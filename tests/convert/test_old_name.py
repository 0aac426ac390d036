"""The deprecated package name ``bench.interchange`` (until 0.3): importing it warns naming
``bench.convert``, and every old import path a codec or a script types still resolves to the
same objects (a subprocess, so the warning is not hidden by an import made earlier)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

OLD_IMPORTS = """
import warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import bench.interchange
    from bench.interchange.formats import InterchangeError, instance_from_puzzlink
    from bench.interchange.pzpr.number16 import NUMBER16
    from bench.interchange.janko import read_janko
    import bench.interchange.pzpr.url as url
import bench.convert.formats, bench.convert.janko, bench.convert.pzpr.url
from bench.convert.pzpr.common import ConversionError
from bench.convert.pzpr.number16 import NUMBER16 as new_number16
assert InterchangeError is ConversionError
assert bench.interchange.InterchangeError is ConversionError
assert instance_from_puzzlink is bench.convert.formats.instance_from_puzzlink
assert read_janko is bench.convert.janko.read_janko
assert NUMBER16 is new_number16 and url.parse_url is bench.convert.pzpr.url.parse_url
assert bench.interchange.formats.write_instance is bench.convert.formats.write_instance
try:
    instance_from_puzzlink("https://puzz.link/p?nurikabe/2/2/zz")
except InterchangeError as e:
    print("caught", type(e).__name__)
print([f"{w.category.__name__}: {w.message}" for w in caught])
"""


def test_the_old_package_name_works_and_warns_naming_the_new_one():
    out = subprocess.run([sys.executable, "-c", OLD_IMPORTS], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert out[0] == "caught ConversionError"
    assert out[1] == ("['DeprecationWarning: bench.interchange is renamed bench.convert (the old "
                      "name works until 0.3)']")


def test_the_new_package_imports_without_a_warning():
    code = ("import warnings; warnings.simplefilter('error'); import bench.convert.formats, "
            "bench.cli.convert; print('ok')")
    out = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=ROOT,
                         capture_output=True, text=True)
    assert (out.returncode, out.stdout) == (0, "ok\n"), out.stderr
