"""The shape of the code (issue 7's measures of done), kept by the test suite: no module of
bench/ or formulations/ over 500 lines, no function over 60 lines unless its docstring says
why, and no import cycle among their modules (imports inside functions included)."""

from __future__ import annotations

import ast
from pathlib import Path

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
