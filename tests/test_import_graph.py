"""The project's modules depend one way: no import circle among docs/_ext/ and tools/ (issue 30).

Every import of a sibling module counts, at the top of a file or inside a function: a circle that a
late import hides still ties the two modules together."""

import ast
from pathlib import Path

from conftest import ROOT

FOLDERS = [ROOT / "docs" / "_ext", ROOT / "tools"]


def module_imports() -> dict[str, set[str]]:
    """{module: the project modules it imports}, by file name (both folders are on each other's path)."""
    files = {path.stem: path for folder in FOLDERS for path in folder.glob("*.py")}
    graph = {}
    for name, path in files.items():
        imported = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                imported |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                imported.add(node.module.split(".")[0])
        graph[name] = {other for other in imported if other in files and other != name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each import circle once, as the path that closes it."""
    found, done = [], set()

    def visit(name: str, path: list[str]) -> None:
        if name in path:
            circle = path[path.index(name):] + [name]
            if frozenset(circle) not in done:
                done.add(frozenset(circle))
                found.append(circle)
            return
        if name in finished:
            return
        for other in sorted(graph.get(name, ())):
            visit(other, path + [name])
        finished.add(name)

    finished: set[str] = set()
    for start in sorted(graph):
        visit(start, [])
    return found


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_module_of_the_project_imports_itself_back():
    found = circles(module_imports())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(circle) for circle in found)
