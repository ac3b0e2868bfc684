"""Doctest groups do not depend on the pages that ran before them.

The standard run goes through the pages in sorted order in one process. Here
the same examples run again (in this process, so torch is imported once):
once in reverse page order, and once with every page alone in a process
forked from a fresh interpreter state. Each must pass with the same counts.
"""

import gc
import io
import os
import pickle

import pytest
import torch
import torch._dynamo  # noqa: F401  (why: see test_each_page_passes_alone)
from conftest import BUILDDIR, LANGUAGES, ROOT, doctrees_dir
from tools.examples.doctest_report import parse
from sphinx.application import Sphinx

pytestmark = pytest.mark.long  # conftest.py schedules it early


def doctest_app(language: str, outdir) -> Sphinx:
    return Sphinx(ROOT / "docs", ROOT, outdir, doctrees_dir(language), "doctest",
                  confoverrides={"language": language}, status=io.StringIO(), warning=io.StringIO(),
                  freshenv=False)


def run_page(app: Sphinx, docname: str) -> tuple[int, int]:
    builder = app.builder
    tries, failures = builder.total_tries, builder.total_failures + builder.setup_failures
    builder.test_doc(docname, app.env.get_doctree(docname))
    return builder.total_tries - tries, builder.total_failures + builder.setup_failures - failures


def run_page_in_fork(app: Sphinx, docname: str) -> tuple[int, int]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: run this one page from the parent's untouched state
        os.close(read)
        # One intra-op thread, as DataLoader's forked workers do: a child forked after the parent's OpenMP
        # pool ran (an xdist worker runs other tests first) can hang in its first parallel op (seen once:
        # autograd/freezing, ended by doctest_guard's backstop after 150 s).
        torch.set_num_threads(1)
        try:
            result = run_page(app, docname)
        except BaseException as exc:  # report, never return into pytest in the child
            result = ("error", repr(exc))
        with os.fdopen(write, "wb") as pipe:
            pickle.dump(result, pipe)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        result = pickle.load(pipe)
    os.waitpid(pid, 0)
    return result


@pytest.fixture(scope="module")
def reference_counts(doctest_runs):
    return parse((BUILDDIR / "doctest" / LANGUAGES[0] / "output.txt").read_text(encoding="utf-8"))[0]


@pytest.fixture(scope="module")
def app(doctest_runs, tmp_path_factory):
    return doctest_app(LANGUAGES[0], tmp_path_factory.mktemp("isolation"))


def test_each_page_passes_alone(app, reference_counts):
    # torch is imported once, at the top, before forking, with torch._dynamo: torch imports it on the first
    # call of an optimizer's constructor (torch._disable_dynamo) or of torch.compile, and on the first
    # torch._dynamo attribute (torch.__getattr__): a page should not depend on it (torch imports it on
    # demand), so the forks start with it imported; left to the children, each page with an optimizer spent
    # 2 s importing it again (this test took 52 s of its file's 67 s alone, and takes 14 s). What is alive
    # now is frozen first: each page's first reset_global_state collects, and a collection that walked the
    # parent's objects in a child would copy every page of memory they sit on (a third of the children's
    # processor time).
    gc.collect()
    gc.freeze()
    try:
        results = {page: run_page_in_fork(app, page) for page in sorted(reference_counts)}
    finally:
        gc.unfreeze()  # the worker goes on to other tests
    assert {p: r for p, r in results.items() if r[0] == "error" or r[1]} == {}, "pages that fail when run alone"
    assert {p: r[0] for p, r in results.items()} == reference_counts


def test_pages_pass_in_reverse_order(app, reference_counts):
    results = {page: run_page(app, page) for page in sorted(reference_counts, reverse=True)}
    assert {p: r for p, r in results.items() if r[1]} == {}, "pages that fail when run in reverse order"
    assert {p: r[0] for p, r in results.items()} == reference_counts
