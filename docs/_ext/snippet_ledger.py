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
"""

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
    app.add_config_value("snippet_dirs", [], "env", types=frozenset({list}))
    app.connect("source-read", check_source)
    app.connect("doctree-read", record_blocks)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
    app.connect("build-finished", write_ledger)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
