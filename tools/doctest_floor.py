"""The floor for doctest time: every example run once in one plain Python process.

    python tools/doctest_floor.py extract DOCTREE_DIR OUT.json   # needs Sphinx (not timed)
    python tools/doctest_floor.py run OUT.json                   # plain Python + torch (timed)

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


def run_group(global_setup: str, blocks: list[tuple[str, str]], flags: int) -> tuple[int, int]:
    namespace: dict = {}
    exec(global_setup, namespace)
    parser, runner = doctest.DocTestParser(), doctest.DocTestRunner(optionflags=flags, verbose=False)
    tries = failures = 0
    printed = None  # what the last testcode block printed
    for kind, code in blocks:
        if kind in ("testsetup", "testcleanup"):
            exec(code, namespace)
        elif kind == "doctest":
            test = parser.get_doctest(code, {}, "floor", None, 0)
            test.globs = namespace  # get_doctest copies its globs; the blocks of a group share one namespace
            result = runner.run(test, out=lambda _: None, clear_globs=False)
            tries, failures = tries + result.attempted, failures + result.failed
        elif kind == "testcode":
            buffer = io.StringIO()
            with redirect_stdout(buffer):
                exec(code, namespace)
            tries += 1
            printed = buffer.getvalue()
        elif kind == "testoutput" and printed is not None:
            failures += printed.strip() != code.strip()
    return tries, failures


def run(data_path: Path) -> None:
    data = json.loads(data_path.read_text())
    flags = data["flags"]  # conf.py's doctest_default_flags
    total_tries = total_failures = 0
    for page, groups in data["pages"].items():
        for blocks in groups.values():
            tries, failures = run_group(data["global_setup"], blocks, flags)
            total_tries, total_failures = total_tries + tries, total_failures + failures
    print(f"{total_tries} examples, {total_failures} failures")
    if total_failures:
        sys.exit("the floor must run every example as the doctest builder does; a failure means it does not")


if __name__ == "__main__":
    if sys.argv[1:2] == ["extract"]:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))
        import runpy
        conf = runpy.run_path(str(Path(__file__).resolve().parent.parent / "conf.py"))
        extract(Path(sys.argv[2]), Path(sys.argv[3]), conf["doctest_global_setup"], conf["doctest_default_flags"])
    elif sys.argv[1:2] == ["run"]:
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "docs" / "_ext"))
        run(Path(sys.argv[2]))
    else:
        sys.exit(__doc__)
