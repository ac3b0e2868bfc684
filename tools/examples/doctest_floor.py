"""The floor for doctest time: every example run once in one plain Python process.

    python tools/examples/doctest_floor.py extract DOCTREE_DIR OUT.json   # needs Sphinx (not timed)
    python tools/examples/doctest_floor.py run OUT.json                   # plain Python + torch (timed)

``extract`` reads the pickled doctrees of a build and writes the doctest
groups of every page (global setup included) to JSON; ``run`` executes them
with the standard library's doctest machinery, which is the least any runner
must do. ``make bench`` compares Sphinx's doctest builder with this.
"""

import doctest
import io
import json
import pickle
import sys
from contextlib import redirect_stdout
from pathlib import Path


def extract(doctree_dir: Path, out: Path, global_setup: str, flags: int) -> None:
    from docutils import nodes  # noqa: F401  (needed to unpickle doctrees)

    pages = {}
    for path in sorted(doctree_dir.rglob("*.doctree")):
        doctree = pickle.loads(path.read_bytes())
        groups: dict[str, list[tuple[str, str]]] = {}
        for node in doctree.findall(lambda n: "testnodetype" in getattr(n, "attributes", {})):
            for group in node.get("groups", ["default"]):
                groups.setdefault(group, []).append((node["testnodetype"], node.get("test", node.astext())))
        if groups:
            pages[path.relative_to(doctree_dir).with_suffix("").as_posix()] = groups
    out.write_text(json.dumps({"global_setup": global_setup, "flags": flags, "pages": pages}))


def indented(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.strip("\n").splitlines())


def run_group(global_setup: str, blocks: list[tuple[str, str]], flags: int, name: str = "floor",
              reports: list[str] | None = None) -> tuple[int, int]:
    """Run one group's blocks in one namespace: (examples tried, failures).

    The report of each failure, as doctest writes it (the example, what was expected,
    what came), is appended to `reports`.
    """
    reports = [] if reports is None else reports
    namespace: dict = {}
    exec(global_setup, namespace)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=flags, verbose=False)
    tries = failures = 0
    printed, source = None, None  # what the last testcode block printed, and its code
    for kind, code in blocks:
        if kind in ("testsetup", "testcleanup"):
            exec(code, namespace)
        elif kind == "doctest":
            test = parser.get_doctest(code, {}, name, name, 0)
            test.globs = namespace  # get_doctest copies its globs; the blocks of a group share one namespace
            report: list[str] = []
            result = runner.run(test, out=report.append, clear_globs=False)
            tries, failures = tries + result.attempted, failures + result.failed
            reports += [block.strip("\n") for block in "".join(report).split("*" * 70) if block.strip()]
        elif kind == "testcode":
            buffer = io.StringIO()
            with redirect_stdout(buffer):
                exec(code, namespace)
            tries += 1
            printed, source = buffer.getvalue(), code
        elif kind == "testoutput" and printed is not None:
            if printed.strip() != code.strip():
                failures += 1
                reports.append(f"{name}: testcode\nFailed example:\n{indented(source)}"
                               f"Expected:\n{indented(code)}Got:\n{indented(printed)}".rstrip("\n"))
    return tries, failures


def run(data_path: Path) -> None:
    data = json.loads(data_path.read_text())
    flags = data["flags"]  # conf.py's doctest_default_flags
    total_tries = total_failures = 0
    reports: list[str] = []
    for page, groups in data["pages"].items():
        for group, blocks in groups.items():
            tries, failures = run_group(data["global_setup"], blocks, flags, f"{page} [{group}]", reports)
            total_tries, total_failures = total_tries + tries, total_failures + failures
    print(f"{total_tries} examples, {total_failures} failures")
    if total_failures:
        sys.exit("\n\n".join(["the floor must run every example as the doctest builder does; a failure means"
                               " it does not:", *reports]))


if __name__ == "__main__":
    if sys.argv[1:2] == ["extract"]:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
        import runpy
        conf = runpy.run_path(str(Path(__file__).resolve().parents[2] / "conf.py"))
        extract(Path(sys.argv[2]), Path(sys.argv[3]), conf["doctest_global_setup"], conf["doctest_default_flags"])
    elif sys.argv[1:2] == ["run"]:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))
        run(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
