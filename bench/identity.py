"""A result's identity: everything that produced it, hashed, so a run can reuse a result of
another run exactly when nothing that made it has changed.

The parts (:func:`identity_parts`), each a column of the result:

- the instance, by its content (the task key's ``sha256:`` digest: a moved file is the same);
- the puzzle and the formulation variant (its label);
- ``code``: the code that made and judged the answer (:func:`formulation_code`): the
  formulation's module, its puzzle's rules (the verifier), and the code every task runs
  (:func:`task_files`: reading the instance, the solve loop, the registry, the records, and
  the judging rules, :mod:`bench.judge`);
- the solver's name, ``solver_version`` and ``backend_code`` (:func:`backend_code`: the
  backend's module and what it imports);
- the limits (time, memory, threads), the solution count asked, the seed and the repetition;
- the machine (:func:`machine`: CPU model, cores, memory, Python), named by ``machine``.

``identity`` is the SHA-256 of those parts. The harness's own version (``harness``) is recorded
beside it, not in it: a change to the run, report or command-line layers (which measure,
record and present results) does not rerun a formulation's tasks. What decides a result's
status, ``checked`` and ``known`` (the checker's verdict, the known solution's, the time limit
rule, a killed or crashed task's status) is judging, not measuring: it lives in
:mod:`bench.judge`, outside the run layer, and is a root of :func:`task_files`
(:data:`JUDGE_MODULES`), so a change to it changes every result's ``code``. A task checks its
planned ``code`` and ``backend_code`` against the files on disk when it starts
(:func:`bench.run.execute.execute`): code edited after planning gives an error result, never
an answer recorded under the planned digest.

A module's code digest is derived from the source, not from what happens to be imported
(``sys.modules`` depends on import order, and a fork-server template preloads every
formulation of a kind): the module's file and, transitively, every module it names in an
``import`` or ``from ... import`` statement (the AST; conditional, function-level and
``TYPE_CHECKING`` imports included) that lies under ``formulations``, ``bench`` or the
module's own top-level package (a plugin's own helpers), except bench's run, report and
command-line layers (:data:`NOT_FOLLOWED`) and, for a formulation,
``bench.backends`` (the backend's own part). A package's ``__init__`` counts only where it is
imported by name. Data files count too: a file in a module's package tree (``.lp`` rules)
whose name it spells in a string constant, an f-string or a sum of strings of its code (its
fields as wildcards: ``f"connect_{wall}.lp"`` names ``connect_edge.lp`` and
``connect_reach.lp``; a bare suffix, as in ``Path(__file__).with_suffix(".lp")``, the
module's own name with it), with the literal folders joined before it or spelled in it
(``HERE / "rules" / "x.lp"``, ``HERE / "sub/y.lp"``; a part that is no text, ``HERE / NAME /
"z.lp"``, any one folder). A name names the files of its module's folder and its subfolders
whose path ends with it (a module in no package: its folder only), or, joined to a name the
module imports (``SHARED / "grid.lp"``, ``SHARED`` from ``formulations._asp``), the file at
that path in that module's folder (:func:`bench.named_files.patterns`): ``"model.lp"`` in a
backend names no ``model.lp`` of another package's folder. ``__pycache__`` and dot-folders
hold none. Each data file is named by its path from its package root
(``formulations/shikaku/asp_cover.lp``), so two folders of one name hide no file of each
other. Prose names nothing: a docstring or any other string standing as a statement of its
own, which the code never uses, nor the pattern of a glob on a literal subfolder, which lists
files in no digest's folder (:func:`bench.named_files.code_nodes`); so a stray ``notes.txt``
changes no digest. The digest
hashes each file's module name (or file name) and bytes, so moving the repository changes
nothing and editing one module changes exactly the results whose code imports it: a puzzle's
rules reach its own formulations' results, an encoding those of the formulations that import
it, a backend module its solvers' results, and a shared module (``bench.grid``,
``bench.instance``, ``bench.registry``, ``bench.models``, ``bench.solve``) every result.
"""

from __future__ import annotations

import ast
import datetime as dt
import functools
import hashlib
import importlib.util
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from bench.machine import MACHINE_FIELDS as MACHINE_FIELDS
from bench.machine import machine as machine
from bench.machine import machine_id
from bench.machine import machine_label as machine_label
from bench.named_files import code_nodes, data_files, package_root, patterns, selected
from bench.records import Task

#: bench's layers no result depends on: running and measuring tasks, reporting, the commands
NOT_FOLLOWED = ("bench.run", "bench.report", "bench.cli")
#: packages whose modules enter a formulation's code digest (beside its own top-level package)
FORMULATION_PACKAGES = ("formulations", "bench")
#: ... except these: the backends enter each backend's own digest (``backend_code``)
FORMULATION_EXCLUDED = (*NOT_FOLLOWED, "bench.backends")
BACKEND_PACKAGES = ("bench",)
#: the task process's modules: what they import (outside :data:`NOT_FOLLOWED`) every task runs
TASK_MODULES = ("bench.run.task", "bench.run.execute")
#: the judging rules (status, checked, known), in every result's code whoever imports them
JUDGE_MODULES = ("bench.judge",)
#: not followed from the task process's modules: this module, which names results (the task
#: process imports it to check its planned code, :func:`changed_code`) but makes none
TASK_EXCLUDED = (*FORMULATION_EXCLUDED, "bench.identity")


def _sha(obj: Any) -> str:
    text = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _limit(x: Any) -> str:
    """A limit as identity text: 3, 3.0 and "3" are one limit."""
    try:
        return f"{float(x):g}"
    except (TypeError, ValueError):
        return str(x)


def identity_parts(res: dict[str, Any]) -> dict[str, Any]:
    """The parts of a result's (or a planned task's) identity, from its columns."""
    return {"key": res.get("key", ""), "code": res.get("code", ""),
            "solver_version": res.get("solver_version", ""),
            "backend_code": res.get("backend_code", ""),
            "time_limit": _limit(res.get("time_limit")),
            "memory_limit_mb": _limit(res.get("memory_limit_mb")),
            "threads": _limit(res.get("threads")), "machine": machine_id(res)}


def identity(res: dict[str, Any]) -> str:
    """``id-`` and 16 hex digits of the SHA-256 of :func:`identity_parts`; "" for a result
    written before identities were recorded (no code digest): it matches nothing."""
    if not res.get("code") or not res.get("backend_code"):
        return ""
    return "id-" + _sha(identity_parts(res))[:16]


def differing_parts(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    """Which parts of two results' identities differ, in words: ``formulation code``,
    ``solver version``, ``backend code``, ``limits``, ``machine``."""
    words = {"code": "formulation code", "solver_version": "solver version",
             "backend_code": "backend code", "time_limit": "limits",
             "memory_limit_mb": "limits", "threads": "limits", "machine": "machine",
             "key": "task"}
    pa, pb = identity_parts(a), identity_parts(b)
    out: list[str] = []
    for k, word in words.items():
        if pa[k] != pb[k] and word not in out:
            out.append(word)
    return out


def planned_record(task: Task, solver_version: str, where: dict[str, Any] | None = None
                   ) -> dict[str, Any]:
    """The identity's columns of a planned task's result when it runs on ``where`` (default:
    this machine) with the solver at ``solver_version``."""
    return {**task.to_dict(), "key": task.key, "solver_version": solver_version,
            **(where or machine())}


def planned_identity(task: Task, solver_version: str, where: dict[str, Any] | None = None
                     ) -> str:
    """The identity a planned task's result will have (:func:`planned_record`)."""
    return identity(planned_record(task, solver_version, where))


# -- code digests -------------------------------------------------------------------------

def _parse(path: str) -> tuple[bytes, tuple[ast.AST, ...]]:
    """A file's bytes and the import and string nodes of its code
    (:func:`bench.named_files.code_nodes`; read each time: the caller, :func:`_summarised`,
    caches by the file's ``stat``)."""
    data = Path(path).read_bytes()
    try:
        tree = ast.parse(data, filename=path)
    except SyntaxError:  # its bytes still count; it imports nothing we can see
        return data, ()
    return data, tuple(code_nodes(tree))


@functools.cache
def _summarised(name: str, path: str, mtime_ns: int, size: int, ctime_ns: int, inode: int
                ) -> tuple[bytes, frozenset[str], frozenset[tuple[str, str]]]:
    """Module ``name``'s file: the SHA-256 of its bytes, the modules it imports
    (:func:`_imports`) and the file names it spells (:func:`bench.named_files.patterns`);
    cached by the file's ``stat`` (its change time and inode too, which a copy keeping the
    modification time does not keep), so an unchanged file costs a ``stat`` when its digest
    is taken again."""
    data, nodes = _parse(path)
    return (hashlib.sha256(data).digest(), frozenset(_imports(name, Path(path), nodes)),
            frozenset(patterns(nodes, Path(path).stem, _imported_names(name, Path(path),
                                                                        nodes))))


#: each file's ``stat`` key when this process first took a digest of it (a fork-server
#: template takes every digest of its kinds before its tasks fork): :func:`changed_code`
#: names the files whose key differs now
_FIRST: dict[str, tuple[int, int, int, int]] = {}


def _stat_key(path: Path) -> tuple[int, int, int, int]:
    st = path.stat()
    key = (st.st_mtime_ns, st.st_size, st.st_ctime_ns, st.st_ino)
    _FIRST.setdefault(str(path), key)
    return key


def _summary(name: str, path: Path) -> tuple[bytes, frozenset[str], frozenset[tuple[str, str]]]:
    return _summarised(name, str(path), *_stat_key(path))


def _origin(name: str) -> Path | None:
    """The source file of module ``name`` (None: not found, or not a Python source file)."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    return Path(spec.origin)


def _imports(name: str, path: Path, nodes: Iterable[ast.AST]) -> set[str]:
    """Absolute names of the modules a module's import statements name (``from p import m``
    names ``p`` and ``p.m``: ``m`` may be a module)."""
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (base := _from(name, path, node)):
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names if a.name != "*")
    return out


def _from(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from`` import reads ("" when it cannot resolve)."""
    if not node.level:
        return node.module or ""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    try:
        return importlib.util.resolve_name("." * node.level + (node.module or ""), package)
    except (ImportError, ValueError):
        return ""


def _imported_names(name: str, path: Path, nodes: Iterable[ast.AST]) -> dict[str, str]:
    """The names a module binds with ``from M import X [as Y]``: ``{Y: M}``."""
    return {a.asname or a.name: base for node in nodes if isinstance(node, ast.ImportFrom)
            and (base := _from(name, path, node)) for a in node.names}


def _under(name: str, packages: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in packages)


def _walk(roots: Iterable[str], follow: Iterable[str], exclude: Iterable[str]
          ) -> dict[str, Path]:
    """The roots and, transitively, the modules they import that lie under ``follow`` and
    not under ``exclude``, and the data files they name (:func:`patterns`): a name in a
    module's own folder or its subfolders (its package tree), one joined to an imported name
    in that module's folder, each keyed by its path from its package root
    (:func:`package_root`). Raises ImportError for a root without Python source."""
    follow, exclude = tuple(follow), tuple(exclude)
    files: dict[str, Path] = {}
    #: (folder, root its files are named from, anchored, deep) -> the patterns named in it
    patterns: dict[tuple[Path, Path, bool, bool], set[tuple[str, ...]]] = {}
    todo = list(roots)
    required = set(todo)
    while todo:
        name = todo.pop()
        if name in files:
            continue
        path = _origin(name)
        if path is None:
            if name in required:
                raise ImportError(f"no Python source for module {name!r}")
            continue
        files[name] = path
        _, imports, named = _summary(name, path)
        for scope, pattern in named:  # an import's folder if it is one the digest follows
            there = _origin(scope) if _under(scope, follow) and not _under(scope, exclude) \
                else None
            root, deep = package_root(scope, there) if there else package_root(name, path)
            key = ((there or path).parent, root, there is not None, deep and there is None)
            patterns.setdefault(key, set()).add(tuple(pattern.split("/")))
        todo += sorted(n for n in imports
                       if _under(n, follow) and not _under(n, exclude) and n not in files)
    for (folder, root, anchored, deep), named_here in sorted(patterns.items()):
        for f in selected(data_files(folder, deep), named_here, anchored):
            files[f.relative_to(root).as_posix()] = f
    return files


def code_files(module: str, packages: Iterable[str] = FORMULATION_PACKAGES,
               own: bool = True, exclude: Iterable[str] = FORMULATION_EXCLUDED
               ) -> dict[str, Path]:
    """Every file a module's code digest covers: ``{module name or data file name: path}``
    (the module, the modules it imports under ``packages`` or, with ``own``, its own
    top-level package, and not under ``exclude``, transitively, and the data files they
    name). Raises ImportError for a module not found."""
    follow = (*packages, *([module.partition(".")[0]] if own else []))
    return _walk([module], follow, exclude)


def task_files() -> dict[str, Path]:
    """The code every task runs whatever its formulation and solver: the modules the task
    process (:data:`TASK_MODULES`) imports outside the run, report and command-line layers
    (reading the instance, the solve loop, the answer's check, the registry, the records),
    and the judging rules (:data:`JUDGE_MODULES`), with what they import under ``bench``
    (backends left to each backend's digest)."""
    roots: set[str] = set(JUDGE_MODULES)
    for module in TASK_MODULES:
        path = _origin(module)
        if path is None:
            continue
        roots |= {n for n in _summary(module, path)[1]
                  if _under(n, ("bench",)) and not _under(n, TASK_EXCLUDED)
                  and _origin(n) is not None}
    return _walk(sorted(roots), FORMULATION_PACKAGES, TASK_EXCLUDED)


def puzzle_module(puzzle: str) -> str:
    """The module of a puzzle's rules (its verifier): the module of its registered
    :class:`~bench.puzzles.base.Puzzle` class; "" for a puzzle not registered."""
    from bench.puzzles import get_puzzle

    try:
        return type(get_puzzle(puzzle)).__module__
    except (KeyError, ValueError):
        return ""


def _digest(files: dict[str, Path]) -> str:
    h = hashlib.sha256()
    for name in sorted(files):
        path = files[name]
        if path.suffix == ".py":
            sha = _summary(name, path)[0]
        else:
            _stat_key(path)
            sha = hashlib.sha256(path.read_bytes()).digest()
        h.update(name.encode() + b"\0" + sha)
    return "code-" + h.hexdigest()[:16]


def code_digest(module: str, packages: Iterable[str] = FORMULATION_PACKAGES,
                own: bool = True, exclude: Iterable[str] = FORMULATION_EXCLUDED) -> str:
    """``code-`` and 16 hex digits of the SHA-256 over :func:`code_files` (each file's name
    and bytes, in name order); ``""`` when the module's source cannot be found."""
    try:
        return _digest(code_files(module, tuple(packages), own, tuple(exclude)))
    except ImportError:
        return ""


def formulation_files(cls: type) -> dict[str, Path]:
    """Every file a formulation class's code digest covers: its module's (:func:`code_files`),
    its puzzle's rules module's (the verifier that judges its answers) and
    :func:`task_files`."""
    files = code_files(cls.__module__)
    rules = puzzle_module(str(getattr(cls, "puzzle", "")))
    if rules:
        files.update(code_files(rules))
    files.update(task_files())
    return files


def formulation_code(cls: type) -> str:
    """The code digest of a formulation class (:func:`formulation_files`); "" when its
    module's source cannot be found."""
    try:
        return _digest(formulation_files(cls))
    except ImportError:
        return ""


def backend_code(cls: type) -> str:
    """The code digest of a backend class: its module and what it imports under ``bench``
    (outside the run, report and command-line layers) or its own top-level package."""
    return code_digest(cls.__module__, BACKEND_PACKAGES, own=True, exclude=NOT_FOLLOWED)


def changed_code(task: Task, formulation: type, backend: type) -> str:
    """What of a planned task's code changed on disk since the run was planned, in one line
    ("" when nothing did, or the task has no planned digest): its formulation's code
    (:func:`formulation_files` against ``task.code``) or its solver's (:func:`backend_code`
    against ``task.backend_code``), and which files (:func:`_which`). A task process imports
    what is on disk when it starts; its result is recorded under the planned digests, so it
    must run only the planned code. Each file is read, parsed and hashed again only where its
    ``stat`` changed (:func:`_summarised`)."""
    parts = ((task.code, f"the code of {task.formulation}", lambda: formulation_files(formulation)),
             (task.backend_code, f"the code of solver {task.solver}", lambda: code_files(
                 backend.__module__, BACKEND_PACKAGES, own=True, exclude=NOT_FOLLOWED)))
    for planned, what, files_of in parts:
        try:
            files = files_of() if planned else {}
        except ImportError:
            files = {}
        if planned and (now := _digest(files) if files else "") != planned:
            return (f"{what} changed since the run was planned{_which(files)} "
                    f"({now or 'its source not found'}, planned {planned})")
    return ""


def _which(files: dict[str, Path]) -> str:
    """The files of a changed digest whose ``stat`` differs from when this process first took
    a digest of them (:data:`_FIRST`), at most three named; where it knows none (a spawned
    task reads each file first after the change), the file changed last (by its change time,
    which no copy or ``touch`` sets back: the edit that changed the digest is at least as
    late)."""
    changed: list[str] = []
    last: tuple[int, str] = (-1, "")
    for name, path in sorted(files.items()):
        try:
            key = _stat_key(path)
        except OSError:
            continue
        shown = name if path.suffix != ".py" else \
            name.replace(".", "/") + ("/__init__.py" if path.name == "__init__.py" else ".py")
        if _FIRST[str(path)] != key:
            changed.append(shown)
        last = max(last, (key[2], shown))
    if changed:
        more = len(changed) - 3
        named = changed[:3] if more > 0 else changed[:-1]
        tail = f"{more} other{'s' * (more > 1)}" if more > 0 else changed[-1]
        return ": " + (f"{', '.join(named)} and {tail}" if named else tail)
    if not last[1]:
        return ""
    at = dt.datetime.fromtimestamp(last[0] / 1e9, dt.UTC).strftime("%H:%M:%S UTC")
    return f": the file changed last is {last[1]}, at {at}"
