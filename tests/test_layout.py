"""The shape of the code, kept by the test suite: no module of bench/ or formulations/ over 500
lines, no function over 60 lines unless its docstring says why, no import cycle among their
modules (imports inside functions included), and the layer rules (:data:`RULES`): which parts
of bench/ may import which, each shown to catch a planted violation."""

from __future__ import annotations

import ast
import fnmatch
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import ROOT

FILES = sorted(p for d in ("bench", "formulations") for p in (ROOT / d).rglob("*.py"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_over_500_lines():
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines()) for p in FILES}
    assert {f: n for f, n in sizes.items() if n > 500} == {}


def test_no_function_over_60_lines_without_a_stated_reason():
    long = []
    for path in FILES:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                doc = ast.get_docstring(node) or ""
                if lines > 60 and "Over 60 lines" not in doc:
                    long.append(f"{path.relative_to(ROOT)}:{node.name} ({lines} lines)")
    assert long == []


def test_no_import_cycle():
    modules = {module_name(p): p for p in FILES}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            graph[name] |= {t for t in targets if t in modules and t != name}
    cycles = []
    state: dict[str, int] = {}  # 1: on the stack, 2: done

    def visit(m: str, stack: list[str]) -> None:
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append([*stack[stack.index(n):], n])
            elif n not in state:
                visit(n, [*stack, n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert cycles == []


# Layer rules: which parts of bench/ may import which. A rule names the modules it is about
# (``scope``, dotted prefixes), the imports they may not make (``forbidden``: dotted prefixes of
# bench modules, solver libraries, the formulations package), and whether the ban holds through
# bench's own modules too (``transitive``: importing bench.backends, which imports pysat, then
# counts as importing pysat). A name in ``scope`` or ``exempt`` may hold ``*`` for one part
# (``bench.puzzles.*.generate``: every puzzle folder's generator). Imports inside functions
# count, and so do ``importlib.import_module`` calls with a literal (or f-string) module name.

SOLVERS = ("ortools", "pysat", "pyomo", "clingo", "pyscipopt", "highspy")
MACHINERY = ("bench.run", "bench.generate", "bench.cli", "bench.backends", "bench.encodings",
             "bench.solve", "bench.registry", "bench.report")


@dataclass(frozen=True)
class Rule:
    name: str
    scope: tuple[str, ...]
    forbidden: tuple[str, ...]
    exempt: tuple[str, ...] = ()
    transitive: bool = False


#: the modules of a puzzle's folder that build models: its generator and its own encodings
MODEL_BUILDERS = ("bench.puzzles.*.generate", "bench.puzzles.*.encoding*")

RULES = [
    Rule("a puzzle's rules, codec, picture and tiny boards import no solver library",
         ("bench.puzzles",), SOLVERS, exempt=MODEL_BUILDERS, transitive=True),
    Rule("a puzzle's rules, codec, picture and tiny boards import nothing of the run machinery, "
         "generators, commands, backends, encodings, solve loop, registry or report",
         ("bench.puzzles",), MACHINERY, exempt=MODEL_BUILDERS),
    Rule("a puzzle's generator and encodings import no command, run machinery or report",
         MODEL_BUILDERS, ("bench.cli", "bench.run", "bench.report")),
    Rule("nothing in bench/ imports formulations but the registry's plugin discovery",
         ("bench",), ("formulations",), exempt=("bench.registry",)),
    Rule("the report imports no solver library", ("bench.report",), SOLVERS, transitive=True),
    Rule("the report reads run folders only (no backends, encodings, solve loop, generators, "
         "commands)", ("bench.report",),
         ("bench.backends", "bench.encodings", "bench.solve", "bench.generate", "bench.cli")),
    Rule("the core types import no solver library", ("bench.instance", "bench.records",
         "bench.grid", "bench.codec", "bench.suites"), SOLVERS, transitive=True),
    Rule("the core types import nothing of the layers above them", ("bench.instance",
         "bench.records", "bench.grid", "bench.codec", "bench.suites"), MACHINERY),
    Rule("the converters of other tools' formats import no solver library",
         ("bench.convert", "bench.interchange"), SOLVERS, transitive=True),
    Rule("the run machinery imports no generator and no command", ("bench.run",),
         ("bench.generate", "bench.cli")),
    Rule("only the commands import the commands", ("bench",), ("bench.cli",),
         exempt=("bench.cli",)),
]


def under(name: str, prefixes: tuple[str, ...]) -> bool:
    """Whether ``name`` is one of ``prefixes`` or inside one (``*`` matches one part)."""
    return any(fnmatch.fnmatchcase(name, p) or fnmatch.fnmatchcase(name, p + ".*")
               for p in prefixes)


def imported_names(tree: ast.AST) -> set[str]:
    """Every module name a module imports (``from m import x`` gives m and m.x)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out |= {node.module} | {f"{node.module}.{a.name}" for a in node.names}
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
              and node.func.attr == "import_module" and node.args):
            arg = node.args[0]
            if isinstance(arg, ast.JoinedStr) and arg.values:
                arg = arg.values[0]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                out.add(arg.value.rstrip("."))
    return out


def import_graph() -> dict[str, set[str]]:
    return {module_name(p): imported_names(ast.parse(p.read_text())) for p in FILES
            if p.is_relative_to(ROOT / "bench")}


def violations(graph: dict[str, set[str]], rule: Rule) -> list[str]:
    """``module -> import`` for every import of a module in the rule's scope that the rule
    forbids (through other bench modules too when the rule is transitive)."""
    found = []
    for module in sorted(graph):
        if not under(module, rule.scope) or under(module, rule.exempt):
            continue
        seen, todo = {module}, [module]
        while todo:
            for name in sorted(graph.get(todo.pop(), ())):
                if under(name, rule.forbidden):
                    found.append(f"{module} -> {name}")
                elif rule.transitive and name in graph and name not in seen:
                    seen.add(name)
                    todo.append(name)
    return sorted(set(found))


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_layer_rule_holds(rule: Rule):
    assert violations(import_graph(), rule) == []


@pytest.mark.parametrize("rule", RULES, ids=lambda r: r.name)
def test_layer_rule_fails_on_a_planted_violation(rule: Rule):
    """The real graph plus one forbidden import, made by a module in the rule's scope (and,
    for a transitive rule, also one made through an allowed helper module)."""
    graph = import_graph()
    source = next(m for m in sorted(graph) if under(m, rule.scope) and not under(m, rule.exempt))
    target = f"{rule.forbidden[0]}.planted"
    direct = {**graph, source: graph[source] | {target}}
    found = violations(direct, rule)
    assert f"{source} -> {target}" in found and all(f.endswith(target) for f in found)
    helper = "bench.grid" if source != "bench.grid" else "bench.records"
    indirect = {**graph, source: graph[source] | {helper}, helper: graph[helper] | {target}}
    assert (f"{source} -> {target}" in violations(indirect, rule)) == rule.transitive


def test_a_puzzle_folders_rules_are_in_scope_and_only_its_model_builders_are_exempt():
    """A solver import planted in a puzzle's rules, codec, picture or tiny boards is caught; one
    in its generator or its own encodings is not (they build models), but a command import
    there is."""
    graph = import_graph()
    rules, builders = RULES[0], RULES[2]

    def planted(module: str, target: str, rule: Rule) -> list[str]:
        return violations({**graph, module: graph[module] | {target}}, rule)

    for part in ("rules", "codec", "picture", "tiny"):
        module = f"bench.puzzles.nurikabe.{part}"
        assert planted(module, "pysat.planted", rules) == [f"{module} -> pysat.planted"]
    for module in ("bench.puzzles.nurikabe.generate", "bench.puzzles.nurikabe.generate.unique",
                   "bench.puzzles.fillomino.encoding_sat", "bench.puzzles.shikaku.generate"):
        assert planted(module, "pysat.planted", rules) == []
        assert planted(module, "bench.cli.planted", builders) == [f"{module} -> bench.cli.planted"]


def test_the_builtin_formulations_are_declared_by_the_entry_point():
    """The registry names the built-in package once (bench.registry.BUILTIN): it is the value
    of the ``builtin`` entry point, so plugin discovery and the package agree."""
    import importlib.metadata

    from bench.registry import BUILTIN, ENTRY_POINT_GROUP

    eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP, name="builtin")
    assert [ep.value for ep in eps] == [BUILTIN]


def test_a_deprecated_package_name_is_only_its_shim():
    """``bench/interchange/`` (the old name of ``bench/convert/``, until 0.3) holds nothing but
    its ``__init__.py``, which imports no converter by name but the package it stands for."""
    shim = ROOT / "bench" / "interchange"
    assert sorted(p.name for p in shim.iterdir() if p.name != "__pycache__") == ["__init__.py"]
    imports = imported_names(ast.parse((shim / "__init__.py").read_text()))
    assert {m for m in imports if m.startswith("bench")} == {
        "bench.convert", "bench.convert.pzpr.common", "bench.convert.pzpr.common.ConversionError"}
