"""The data files a module's code names enter its code digest wherever they lie in its package
tree (bench/identity.py): in its folder or a subfolder the code joins (``HERE / "rules" /
"x.lp"``, ``HERE / "sub/y.lp"``), each keyed by its path from the package root, so two
folders of one name hide no file of each other; a stray file, ``__pycache__`` and a
dot-folder never enter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bench.identity import code_digest, code_files

#: the reviewer's plugin module: a subfolder joined literally, in one string, through a name
#: that is no text, and a file name summed from two strings
MOD = '''"""Reads rules/x.lp and own.lp; see notes.txt."""
from pathlib import Path
HERE = Path(__file__).parent
NAME = "rules"
def programs():
    a = HERE / "rules" / "x.lp"
    b = Path(__file__).with_suffix(".lp")
    c = HERE / "sub/y.lp"
    d = HERE / NAME / "z.lp"
    e = HERE.joinpath("w" + ".lp")
    f = HERE.joinpath("deep", "v.lp")
    return [a, b, c, d, e, f]
'''
#: modules of two subfolders both called ``data``, each naming its own ``model.lp``
DATA = 'from pathlib import Path\nMODEL = Path(__file__).parent / "model.lp"\n'
BOTH = "from dataplug.one.data import mod as a\nfrom dataplug.two.data import mod as b\n"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.fixture
def plugs(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    _write(tmp_path, {
        "zzplug/__init__.py": "", "zzplug/mod.py": MOD, "zzplug/mod.lp": "m.\n",
        "zzplug/rules/x.lp": "x.\n", "zzplug/rules/z.lp": "z.\n", "zzplug/sub/y.lp": "y.\n",
        "zzplug/w.lp": "w.\n", "zzplug/deep/v.lp": "v.\n", "zzplug/notes.txt": "a note\n",
        "zzplug/x.lp": "not rules/x.lp\n", "zzplug/sub/x.lp": "nor this\n",
        "zzplug/__pycache__/z.lp": "cache\n", "zzplug/.git/z.lp": "git\n",
        "zzplug/rules/stray.lp": "s.\n",
        "dataplug/__init__.py": "", "dataplug/both.py": BOTH,
        **{f"dataplug/{d}/{f}": "" for d in ("one", "two", "one/data", "two/data")
           for f in ("__init__.py",)},
        "dataplug/one/data/mod.py": DATA, "dataplug/two/data/mod.py": DATA,
        "dataplug/one/data/model.lp": "1.\n", "dataplug/two/data/model.lp": "2.\n"})
    yield tmp_path
    for name in [m for m in sys.modules if m.startswith(("zzplug", "dataplug"))]:
        del sys.modules[name]


def test_files_a_module_names_in_subfolders_of_its_package_enter_its_digest(plugs):
    files = code_files("zzplug.mod")
    assert {n for n in files if "/" in n} == {
        "zzplug/mod.lp", "zzplug/rules/x.lp", "zzplug/rules/z.lp", "zzplug/sub/y.lp",
        "zzplug/w.lp", "zzplug/deep/v.lp"}
    before = code_digest("zzplug.mod")
    for stray in ("notes.txt", "x.lp", "sub/x.lp", "__pycache__/z.lp", ".git/z.lp",
                  "rules/stray.lp"):
        (plugs / "zzplug" / stray).write_text("edited\n")
    assert code_digest("zzplug.mod") == before
    for named in ("rules/x.lp", "sub/y.lp", "rules/z.lp", "w.lp", "deep/v.lp"):
        (plugs / "zzplug" / named).write_text(f"{named} edited\n")
        assert code_digest("zzplug.mod") != before, named
        before = code_digest("zzplug.mod")
    (plugs / "zzplug" / "more").mkdir()  # a file added since (folders' listings are cached)
    (plugs / "zzplug" / "more" / "z.lp").write_text("z.\n")
    assert "zzplug/more/z.lp" in code_files("zzplug.mod") and code_digest("zzplug.mod") != before


def test_two_folders_of_one_name_hide_no_file_of_each_other(plugs):
    files = code_files("dataplug.both")
    assert {n for n in files if "/" in n} == {"dataplug/one/data/model.lp",
                                               "dataplug/two/data/model.lp"}
    before = code_digest("dataplug.both")
    (plugs / "dataplug" / "two" / "data" / "model.lp").write_text("2 edited\n")
    assert code_digest("dataplug.both") != before
