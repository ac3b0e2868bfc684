"""Every code block is either tested or visibly not Python.

Sphinx does not test a ```python fence, a ``::`` block or a bare ``>>>``
paragraph, and says nothing about it. This extension classifies every code
block of every page, in every language's build:

``doctest``   a doctest/testcode/testoutput block (run by the doctest builder);
``snippet``   a literalinclude of a file under ``snippet_dirs`` (run by the tests);
``other``     a block labelled with a non-Python language (console, text, ...).

Anything else is untested Python and is reported as a warning at its file and
line, which fails the ``-W`` build. The per-page counts are written to
``snippet-ledger.json`` in the output directory so the tests can compare the
two languages.

Beside the blocks, the ledger counts each page's ``examples``: what the doctest
builder will run and count as tests (each ``>>>`` of a doctest block, each
testcode block, once per group it belongs to). The count is taken when the page
is read, so every build has it in its environment; ``doctest_guard`` writes it
for the pages a doctest run is about to test, and ``tools/examples/doctest_report.py``
fails a page whose examples did not all run.
"""

import doctest
import json
import re
from collections import Counter
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

logger = logging.getLogger(__name__)

PYTHON_LANGUAGES = {"", "default", "python", "python3", "py", "py3", "pycon", "ipython", "ipython3"}
TESTED_NODE_TYPES = {"doctest", "testcode", "testoutput"}
PROMPT = re.compile(r"^\s*>>>", re.MULTILINE)
FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def classify(node: nodes.Element, snippet_dirs: list[Path]) -> str | None:
    """Return the ledger category of a code block, or None if it is untested Python."""
    if node.get("testnodetype") in TESTED_NODE_TYPES:
        return "doctest"
    included = node.get("source")
    if included and any(Path(included).resolve().is_relative_to(d) for d in snippet_dirs):
        return "snippet"
    language = (node.get("language") or "").lower()
    if isinstance(node, nodes.doctest_block) or language in PYTHON_LANGUAGES:
        return None
    if PROMPT.search(node.astext()):
        return None  # a '>>>' session hidden behind another language label
    return "other"


def bare_prompt_lines(source: str) -> list[int]:
    """Line numbers (1-based) of '>>>' lines outside any code fence.

    MyST renders such lines as nested block quotes, so no doctree check sees them.
    """
    found, fence = [], None
    for number, line in enumerate(source.splitlines(), start=1):
        match = FENCE.match(line)
        if match:
            marker = match.group(1)
            if fence is None:
                fence = marker
            elif marker[0] == fence[0] and len(marker) >= len(fence):
                fence = None
            continue
        if fence is None and line.lstrip().startswith(">>>"):
            found.append(number)
    return found


def snippet_dirs(app: Sphinx) -> list[Path]:
    return [(Path(app.srcdir) / d).resolve() for d in app.config.snippet_dirs]


def check_source(app: Sphinx, docname: str, source: list[str]) -> None:
    for line in bare_prompt_lines(source[0]):
        logger.warning(
            "'>>>' outside a code block is never tested; use a {doctest} fence",
            location=(docname, line), type="ledger", subtype="prompt",
        )


def is_test_node(node: nodes.Node, doctest_blocks: bool) -> bool:
    """The nodes the doctest builder collects (sphinx.ext.doctest's _condition_default/_with_doctest)."""
    if isinstance(node, (nodes.literal_block, nodes.comment)) and "testnodetype" in node:
        return True
    return doctest_blocks and isinstance(node, nodes.doctest_block)


def count_examples(doctree: nodes.Node, doctest_blocks: str = "") -> int:
    """How many tests the doctest builder runs for this page, counted as it groups them.

    A doctest block is one test per ``>>>`` example, a testcode block one test (with or
    without its testoutput); a block in several groups runs in each, and a block of group
    ``*`` in every group of the page (none when the page has no other group). A block with
    ``:skipif:`` or an example with ``+SKIP`` is counted: the run that skips it falls short,
    and the report says so (the project runs every example).
    """
    per_group: dict[str, int] = {}
    everywhere = 0
    parser = doctest.DocTestParser()
    for node in doctree.findall(lambda n: is_test_node(n, bool(doctest_blocks))):
        kind = node.get("testnodetype", "doctest")
        if kind == "doctest":
            try:
                tests = len(parser.get_examples(node["test"] if "test" in node else node.astext()))
            except ValueError:  # the builder ignores it too ("ignoring invalid doctest code")
                tests = 0
        elif kind == "testcode":
            tests = 1
        else:  # testsetup, testcleanup, testoutput: not counted as tests
            continue
        groups = node.get("groups", [doctest_blocks])
        if "*" in groups:
            everywhere += tests
            continue
        for group in groups:
            per_group[group] = per_group.get(group, 0) + tests
    return sum(per_group.values()) + everywhere * len(per_group)


def examples(env: BuildEnvironment, docname: str) -> int:
    """The page's example count, as recorded when it was read."""
    return ledger(env).get(docname, {}).get("examples", 0)


def record_blocks(app: Sphinx, doctree: nodes.document) -> None:
    docname = app.env.docname
    dirs = snippet_dirs(app)
    counts: Counter = Counter()
    for node in doctree.findall(lambda n: isinstance(n, (nodes.literal_block, nodes.doctest_block))):
        category = classify(node, dirs)
        if category is None:
            logger.warning(
                "untested Python code block; use a {doctest}/{testcode} fence, a literalinclude "
                "from snippets/, or label it with its real language",
                location=node, type="ledger", subtype="untested",
            )
            category = "untested"
        counts[category] += 1
    tests = count_examples(doctree, app.config.doctest_test_doctest_blocks)
    if tests:
        counts["examples"] = tests
    ledger(app.env)[docname] = dict(counts)


def ledger(env: BuildEnvironment) -> dict:
    if not hasattr(env, "snippet_ledger"):
        env.snippet_ledger = {}
    return env.snippet_ledger


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    ledger(env).pop(docname, None)


def merge(app: Sphinx, env: BuildEnvironment, docnames: set, other: BuildEnvironment) -> None:
    for docname in docnames:
        ledger(env)[docname] = ledger(other).get(docname, {})


def write_ledger(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html" and app.builder.name != "epub":  # not into a book
        data = {doc: ledger(app.env)[doc] for doc in sorted(ledger(app.env)) if doc in app.env.all_docs}
        Path(app.outdir, "snippet-ledger.json").write_text(json.dumps(data, indent=1, sort_keys=True))


def setup(app: Sphinx) -> dict:
    app.setup_extension("sphinx.ext.doctest")  # doctest_test_doctest_blocks, for count_examples
    app.add_config_value("snippet_dirs", [], "env", types=frozenset({list}))
    app.connect("source-read", check_source)
    app.connect("doctree-read", record_blocks)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("build-finished", write_ledger)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 2}
