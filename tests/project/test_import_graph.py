"""The project's modules depend one way: no import circle among docs/_ext/ and tools/, and each package
imports only the packages MAINTAINING.md says it may (issue 30).

Every import of a project module counts, at the top of a file or inside a function: a circle that a
late import hides still ties the two modules together."""

import ast
from pathlib import Path

from conftest import ROOT

# Where each tree's modules are imported from: docs/_ext/ is on the path of the build (its packages are
# top-level: reader.api_links), the repository root for the tools (tools.catalogs.catalog_file).
FOLDERS = {ROOT / "docs" / "_ext": "", ROOT / "tools": "tools."}


def module_name(path: Path, folder: Path, prefix: str) -> str:
    parts = path.relative_to(folder).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return prefix + ".".join(parts) if parts else prefix.rstrip(".")


def project_modules() -> dict[str, Path]:
    return {module_name(path, folder, prefix): path
            for folder, prefix in FOLDERS.items() for path in sorted(folder.rglob("*.py"))
            if "node_modules" not in path.parts}


def imported_names(path: Path, name: str) -> set[str]:
    """Every dotted name an import of ``path`` (module ``name``) may refer to, relative imports resolved."""
    package = name if path.stem == "__init__" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] if package else [])
                base = ".".join(filter(None, [base, node.module]))
            else:
                base = node.module
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def module_imports() -> dict[str, set[str]]:
    """{module: the project modules (and packages) it imports}."""
    modules = project_modules()
    graph = {}
    for name, path in modules.items():
        imported = set()
        for dotted in imported_names(path, name):
            if dotted in modules:
                imported.add(dotted)
            elif f"tools.{dotted}" in modules:  # a tool that puts tools/ itself on its path
                imported.add(f"tools.{dotted}")
        graph[name] = imported - {name}
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


# Which packages each package may import (MAINTAINING.md, "How the code is laid out"; each package's docstring).
# Every extension package may import tools' libraries; the one tool that imports an extension is
# tools/web/search_documents.py (the site's own Chinese split, search.zh_search).
TOOLS_LIBRARIES = {"tools.project", "tools.catalogs", "tools.terminology"}
MAY_IMPORT = {
    "building": TOOLS_LIBRARIES, "i18n": TOOLS_LIBRARIES, "search": TOOLS_LIBRARIES, "checks": set(),
    "examples": set(), "maths": set(), "reader": {"search"} | TOOLS_LIBRARIES, "books": {"maths", "reader"},
    "tools.project": set(), "tools.catalogs": {"tools.project"}, "tools.terminology": {"tools.catalogs"},
    "tools.lint": TOOLS_LIBRARIES, "tools.web": {"tools.project", "search"}, "tools.examples": {"tools.project"},
    "tools.workflow": {"tools.project", "tools.catalogs", "tools.lint", "tools.web", "tools.examples"},
}


def package_of(module: str) -> str:
    parts = module.split(".")
    return ".".join(parts[:2]) if parts[0] == "tools" else parts[0]


def wrong_way(graph: dict[str, set[str]]) -> list[str]:
    """Every import of a module of another package that its package may not import."""
    return [f"{module} imports {other}" for module, imported in sorted(graph.items()) for other in sorted(imported)
            if package_of(other) != package_of(module) and package_of(other) not in MAY_IMPORT[package_of(module)]]


def test_the_circle_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c", "a"]]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_the_import_graph_sees_relative_and_package_imports():
    graph = module_imports()
    assert "reader.api_links" in graph["reader.api_index"], "from .api_links import ..."
    assert "maths.katex_math" in graph["books.epub_books"], "from maths import katex_math"
    assert "reader.language_switcher" in graph["books.epub_downloads"], "from reader.language_switcher import ..."


def test_no_module_of_the_project_imports_itself_back():
    found = circles(module_imports())
    assert not found, "import circles:\n" + "\n".join(" -> ".join(circle) for circle in found)


def test_a_package_importing_against_the_declared_direction_is_named():
    assert wrong_way({"search.search_synonyms": {"reader.glossary_terms"}, "reader.glossary_terms": {"search"}}) == [
        "search.search_synonyms imports reader.glossary_terms"]
    assert wrong_way({"tools.catalogs.update_po": {"tools.lint.lint_po"}}) == [
        "tools.catalogs.update_po imports tools.lint.lint_po"]


def test_every_package_is_declared_and_imports_only_what_it_may():
    graph = module_imports()
    assert {package_of(module) for module in graph} == set(MAY_IMPORT) | {"tools"}, "a package MAY_IMPORT lacks"
    found = wrong_way({module: imported for module, imported in graph.items() if module != "tools"})
    assert not found, "imports against the declared direction:\n" + "\n".join(found)
