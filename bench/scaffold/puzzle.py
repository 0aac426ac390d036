"""``puzzlebench new-puzzle NAME --out DIR``: an installable puzzle package to start from.

The package (``DIR``): ``pyproject.toml`` declaring the puzzle's entry point (group
``puzzlebench.puzzles``) and its formulation's, the package ``puzzlebench_<name>/`` with the
folder a puzzle is (``rules.py``, ``tiny.py``, ``picture.py``, ``data/*.txt``,
``data/infeasible/*.txt``; see :class:`bench.puzzles.Puzzle`) and the formulation
``sat_direct.py``, a test running the conformance checks, and a README. The rules are
Binairo's, a small puzzle whose rules, tiny boards and SAT model each fit on a page: as
generated, ``pip install -e DIR`` installs it and ``puzzlebench check NAME:sat-direct`` passes;
the author then replaces the rules file by file (``docs/adding-a-puzzle.md``).
"""

from __future__ import annotations

import builtins
import keyword
import re
from pathlib import Path

from bench.scaffold import ScaffoldError, _template, _write_all

_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
#: class names the generated modules import: a puzzle class of one of them would shadow it
_TAKEN = frozenset({"Any", "Formulation", "Instance", "Iterable", "Puzzle", "SatModel",
                    "SolutionGrid", "TinyBoards", "Token", "Value"})
#: the longest puzzle name: it names the package folder, its files and the test file
MAX_NAME = 40

#: template (``puzzle_<file>.tmpl``) -> the path it is written to, under the package folder
#: (``{package}``) or the root
FILES = {
    "pyproject.toml": "pyproject.toml",
    "README.md": "README.md",
    "rules.py": "{package}/rules.py",
    "tiny.py": "{package}/tiny.py",
    "picture.py": "{package}/picture.py",
    "sat.py": "{package}/sat_direct.py",
    "data.txt": "{package}/data/{name}-6x6.txt",
    "infeasible.txt": "{package}/data/infeasible/{name}-2x2.txt",
    "test.py": "tests/test_{name}.py",
}


def write_puzzle(name: str, out: str | Path) -> list[Path]:
    """Write the puzzle package of ``name`` into the new folder ``out``; the files written."""
    from bench.puzzles import puzzle_names

    if not _NAME.match(name) or keyword.iskeyword(name):
        raise ScaffoldError(f"puzzle name {name!r}: lower-case letters, digits and '_', "
                            "starting with a letter (it is the entry point's name and the "
                            "`puzzle:` header of its instance files)")
    cls = "".join(p.capitalize() for p in name.split("_") if p)
    if cls in _TAKEN or keyword.iskeyword(cls) or hasattr(builtins, cls):
        raise ScaffoldError(f"puzzle name {name!r}: its class {cls} would shadow a name the "
                            "generated modules use; choose another name")
    if len(name) > MAX_NAME:
        raise ScaffoldError(f"puzzle name of {len(name)} characters: at most {MAX_NAME}")
    if name in puzzle_names():
        raise ScaffoldError(f"puzzle name {name!r} is taken (puzzles: "
                            f"{', '.join(puzzle_names())}); choose another name")
    root = Path(out)
    if root.exists() and not root.is_dir():
        raise ScaffoldError(f"{root} exists and is not a folder")
    if root.is_dir() and any(root.iterdir()):
        raise ScaffoldError(f"{root} exists and is not empty")
    package = f"puzzlebench_{name}"
    values = {"name": name, "package": package, "dist": f"puzzlebench-{name.replace('_', '-')}",
              "cls": cls}
    files: dict[Path, str] = {
        root / path.format(package=package, name=name):
            _template(f"puzzle_{template}").substitute(values)
        for template, path in FILES.items()}
    files[root / package / "__init__.py"] = ('"""A puzzle for puzzlebench (its entry points: '
                                             'pyproject.toml)."""\n')
    _write_all(root, files)
    return list(files)
