"""Every translated message parsed as Sphinx's i18n transform parses it, with the fast path and without.

Run by tests/i18n/test_fast_i18n.py in a process of its own (building a Sphinx application loads the
project's extensions and the fast path patches Sphinx and MyST modules): ``python fast_i18n_messages.py
LANGUAGE SOURCE_DOCTREES``. Prints one JSON object: how many messages and titles were parsed, how many of
them the fast path built itself, and the messages whose two parses differ (at most 20), each with both
results.

Sphinx's transform (sphinx/transforms/i18n.py) strips a trailing ``#noqa``, gives a message ending in
``::`` a dummy literal block, and publishes each message as a paragraph, and a title's once more with a
setext underline twice its length, taking the title the parse makes; what it keeps of either is the node's
type and its children. Which messages are titles is read from the source language's doctrees, with the
function Sphinx extracts messages with.
"""

import json
import pickle
import sys
import tempfile
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "docs" / "_ext")]

import polib  # noqa: E402
import sphinx.transforms.i18n as sphinx_i18n  # noqa: E402
from docutils import nodes  # noqa: E402
from docutils.frontend import get_default_settings  # noqa: E402
from myst_parser.parsers.sphinx_ import MystParser  # noqa: E402
from sphinx.application import Sphinx  # noqa: E402
from sphinx.util.docutils import docutils_namespace, patch_docutils, sphinx_domains  # noqa: E402
from sphinx.util.nodes import extract_messages  # noqa: E402

from i18n import fast_i18n  # noqa: E402
from tools.project import LOCALE, PAGE_SUFFIX  # noqa: E402

MOST_SHOWN = 20


class Message(NamedTuple):
    source: str  # the page's source file, as the transform is given it
    text: str  # the message as the transform publishes it
    title: bool  # published as a title: underlined, and the title of the parse taken


def title_messages(doctrees: Path) -> set[str]:
    titles = set()
    for path in doctrees.rglob("*.doctree"):
        doctree = pickle.loads(path.read_bytes())
        titles.update(message for node, message in extract_messages(doctree) if isinstance(node, nodes.title))
    return titles


def messages(language: str, titles: set[str]) -> list[Message]:
    """Every message the build translates, in each shape the transform publishes it."""
    found = []
    catalogs = LOCALE / language / "LC_MESSAGES"
    for catalog in sorted(catalogs.rglob("*.po")):
        source = str(ROOT / "docs" / catalog.relative_to(catalogs).with_suffix(PAGE_SUFFIX))
        for entry in polib.pofile(str(catalog)):
            if not entry.msgstr or entry.fuzzy or entry.obsolete:
                continue
            text, _ = sphinx_i18n.parse_noqa(entry.msgstr)
            if text.strip().endswith("::"):
                text += "\n\n   dummy literal"
            found.append(Message(source, text, False))
            if entry.msgid in titles:
                found.append(Message(source, text + "\n" + "=" * len(text) * 2, True))
    return found


def kept(patch: nodes.Node, message: Message) -> tuple[str, list[str]]:
    """What the transform keeps of a parse: the node's type and its children."""
    if message.title:
        patch = patch.next_node()
    return type(patch).__name__, [child.pformat() for child in patch.children]


def main(language: str, source_doctrees: Path) -> dict:
    with patch_docutils(str(ROOT)), docutils_namespace(), tempfile.TemporaryDirectory() as scratch:
        app = Sphinx(str(ROOT / "docs"), str(ROOT), f"{scratch}/out", f"{scratch}/doctrees", "dummy",
                     confoverrides={"language": language}, status=None, warning=None, freshenv=True)
        settings = get_default_settings(MystParser)
        settings.env = app.env
        app.env.temp_data["docname"] = "index"
        options = {"config": app.config, "env": app.env, "registry": app.registry, "settings": settings}
        published = messages(language, title_messages(source_doctrees))
        # The messages the fast path hands to Sphinx's own function instead of building them: the rest it built.
        handed_on, sphinx_publish = [], fast_i18n._publish_msgstr

        def counted(text, *args, **kwargs):
            handed_on.append(text)
            return sphinx_publish(text, *args, **kwargs)

        results = {}
        for fast in (True, False):
            app.config.fast_i18n = fast
            fast_i18n.install(app, app.config)
            fast_i18n._publish_msgstr = counted if fast else sphinx_publish
            try:
                with sphinx_domains(app.env):
                    results[fast] = [kept(sphinx_i18n._publish_msgstr(m.text, m.source, 1, **options), m)
                                     for m in published]
            finally:
                fast_i18n._publish_msgstr = sphinx_publish
    differing = [{"message": m.text, "fast": fast, "slow": slow}
                 for m, fast, slow in zip(published, results[True], results[False]) if fast != slow]
    return {"messages": len(published), "titles": sum(m.title for m in published),
            "built_by_the_fast_path": len(published) - len(handed_on),
            "differing": differing[:MOST_SHOWN], "differing_count": len(differing)}


if __name__ == "__main__":
    print(json.dumps(main(sys.argv[1], Path(sys.argv[2])), ensure_ascii=False))
