"""The data files a module's code names (bench/identity.py counts them in its code digest):
file names spelled in the strings of its code, never its prose, as paths relative to the
folder they name files in, and the data files of a folder's tree they match.

Reads the source's syntax tree only (:mod:`ast`), imports nothing of the project.
"""

from __future__ import annotations

import ast
import fnmatch
import functools
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

#: a string that is a file suffix only (``".lp"``)
SUFFIX = re.compile(r"\.\w+")


def is_text(node: ast.AST) -> bool:
    return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, str))


def text_of(node: ast.AST) -> str | None:
    """The text a string node spells, its fields as ``*``: a constant, an f-string, or a sum
    of those (``"w" + ".lp"``); None for any other node."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else "*" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = text_of(node.left), text_of(node.right)
        return None if left is None or right is None else left + right
    return None


def joined(node: ast.AST) -> tuple[ast.AST, list[ast.expr]] | None:
    """A path joined with names, ending with a text (``X / NAME / "z.lp"``,
    ``X.joinpath("sub", "y.lp")``): the expression it starts from (``X``) and the parts
    joined to it, in order; None for any other node."""
    parts: list[ast.expr] = []
    at = node
    while True:
        if isinstance(at, ast.BinOp) and isinstance(at.op, ast.Div):
            parts[:0], at = [at.right], at.left
        elif (isinstance(at, ast.Call) and isinstance(at.func, ast.Attribute)
              and at.func.attr == "joinpath" and at.args and not at.keywords):
            parts[:0], at = list(at.args), at.func.value
        else:
            break
    return (at, parts) if parts and text_of(parts[-1]) is not None else None


def _subfolder_glob(node: ast.AST) -> ast.Call | None:
    """``node`` when it is ``(X / "sub").glob(pattern)`` (or ``rglob``) on a literal
    subfolder, else None."""
    if not (isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("glob", "rglob")):
        return None
    on = node.func.value
    sub = (isinstance(on, ast.BinOp) and isinstance(on.op, ast.Div)
           and isinstance(on.right, ast.Constant) and isinstance(on.right.value, str)
           and on.right.value not in ("", ".", ".."))
    return node if sub else None


def code_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """The import statements and the strings (constants, f-strings) of a module's code, in no
    order. Not a string that is a statement of its own: a docstring (of the module, a class
    or a function) or any other bare string (an attribute's docstring), which the code never
    uses, so a file name it mentions is prose, not a file the code reads. Not the pieces of
    an f-string either (the f-string counts whole, :func:`patterns`), nor its format specs
    (``{x:.2f}``), which name no file. Nor the pattern of a glob on a literal subfolder
    (``(folder / "data").glob("*.txt")``): it lists that subfolder, no digest's folder, and
    would take every ``.txt`` file beside the code."""
    todo = [tree]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Expr) and is_text(node.value):
            continue
        if (call := _subfolder_glob(node)) is not None:
            todo += [call.func, *call.args[1:], *call.keywords]
            continue
        if (chain := joined(node)) is not None:  # a path joined with names: its folder's
            yield node
            todo += [chain[0], *(part for part in chain[1] if text_of(part) is None)]
            todo += [v.value for part in chain[1] if isinstance(part, ast.JoinedStr)
                     for v in part.values if isinstance(v, ast.FormattedValue)]
            continue
        if text_of(node) is not None and isinstance(node, ast.BinOp):  # "w" + ".lp"
            yield node
            continue
        if isinstance(node, ast.JoinedStr):
            yield node
            todo += [v.value for v in node.values if isinstance(v, ast.FormattedValue)]
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Constant)):
            yield node
        todo += ast.iter_child_nodes(node)


def patterns(nodes: Iterable[ast.AST], stem: str, imported: dict[str, str] | None = None
             ) -> set[tuple[str, str]]:
    """File names spelled in the strings of a module's code (:func:`text_of`, fields as ``*``)
    that look like file names (a dot and some literal text besides), each as a relative path
    (``rules/x.lp``: the literal folders joined before it, or spelled in it; a part that is no
    text, ``HERE / NAME / "z.lp"``, as ``*``) with the module whose folder it names files in:
    "" (the module's own, or a subfolder of it) but for a path that starts from a name the
    module imports (``imported``, ``{name: module}``; ``SHARED / "grid.lp"``): that name's
    module's folder exactly. A bare suffix (``".lp"``) also names the module's own
    file with it (``stem``: ``Path(__file__).with_suffix(".lp")``)."""
    out: set[tuple[str, str]] = set()
    for node in nodes:
        scope, folders = "", []
        if (chain := joined(node)) is not None:
            if isinstance(chain[0], ast.Name):
                scope = (imported or {}).get(chain[0].id, "")
            folders = [text_of(part) or "*" for part in chain[1][:-1]]
            node = chain[1][-1]
        if (text := text_of(node)) is None:
            continue
        parts = "/".join([*folders, text]).split("/")
        for i, part in enumerate(parts):  # a path from elsewhere: its end names files here
            if part in ("", ".", ".."):
                scope, parts = "", parts[i + 1:]
        base = parts[-1] if parts else ""
        if "." in base and "\n" not in base and len(base) < 200 and base.strip("*."):
            out.add((scope, "/".join(parts)))
        if SUFFIX.fullmatch(text):
            out.add(("", stem + text))
    return out


def package_root(name: str, path: Path) -> tuple[Path, bool]:
    """The folder module ``name``'s top-level package lies in (data file names are relative to
    it: ``formulations/shikaku/rules/x.lp``), and whether the module lies in a package (only
    then do its names reach the subfolders of its folder: a top-level module's folder is a
    ``sys.path`` entry)."""
    depth = name.count(".") + (path.name == "__init__.py")
    return path.parents[depth], depth > 0


@functools.cache
def _listed(folder: str, mtime_ns: int, ctime_ns: int, inode: int
            ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A folder's data files (no Python file) and its subfolders but ``__pycache__``,
    dot-folders and links, by name in order; cached by the folder's ``stat`` (a file added,
    removed or renamed in it changes its modification time)."""
    files: list[str] = []
    dirs: list[str] = []
    with os.scandir(folder) as entries:
        for e in entries:
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__" and not e.name.startswith("."):
                    dirs.append(e.name)
            elif e.is_file() and Path(e.name).suffix not in (".py", ".pyc"):
                files.append(e.name)
    return tuple(sorted(files)), tuple(sorted(dirs))


def data_files(folder: Path, deep: bool, rel: tuple[str, ...] = ()
               ) -> list[tuple[tuple[str, ...], Path]]:
    """The data files in ``folder`` (``deep``: and its subfolders, :func:`_listed`), each with
    its path relative to ``folder`` (``rel``: the parts before it), in order."""
    try:
        st = os.stat(folder)
        files, dirs = _listed(str(folder), st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
    except OSError:  # removed while listed
        return []
    out = [((*rel, name), folder / name) for name in files]
    for d in dirs if deep else ():
        out += data_files(folder / d, True, (*rel, d))
    return out


def matches(rel: tuple[str, ...], pattern: tuple[str, ...], anchored: bool) -> bool:
    """Whether a file at ``rel`` (in a folder) is one a relative ``pattern`` names: its last
    parts, each by ``fnmatch`` (``anchored``: all of them)."""
    if len(rel) < len(pattern) or (anchored and len(rel) != len(pattern)):
        return False
    return all(fnmatch.fnmatchcase(a, b) for a, b in zip(rel[-len(pattern):], pattern,
                                                         strict=True))


def selected(tree: Iterable[tuple[tuple[str, ...], Path]], named: Iterable[tuple[str, ...]],
             anchored: bool) -> Iterator[Path]:
    """The files of ``tree`` (:func:`data_files`) that a relative pattern of ``named`` names
    (:func:`matches`); a pattern without wildcards is looked up, not matched."""
    literal = {p for p in named if not any(c in part for part in p for c in "*?[")}
    wild = [p for p in named if p not in literal]
    sizes = sorted({len(p) for p in literal})
    for rel, f in tree:
        if (rel in literal if anchored else any(rel[-n:] in literal for n in sizes
                                                 if n <= len(rel))) \
                or any(matches(rel, p, anchored) for p in wild):
            yield f
