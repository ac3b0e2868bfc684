"""Re-home translated nodes in the document they now belong to.

Sphinx's i18n transform parses every translated message into a small document
of its own and moves the resulting nodes into the page, but each node keeps a
reference to that throwaway document. Pickled with the page, those documents
(one per translated message, settings and all) make a translated doctree about
2.5 times the size of the source one, and every later builder pays for it when
it loads the doctree (the English doctest run was a third slower than the
Chinese one). Pointing the nodes back at their page fixes that.
"""

from docutils import nodes
from sphinx.application import Sphinx


def rehome_nodes(app: Sphinx, doctree: nodes.document) -> int:
    """Point every node at ``doctree``; returns how many pointed elsewhere."""
    moved = 0
    for node in doctree.findall():
        if getattr(node, "_document", None) not in (None, doctree):
            node._document = doctree  # the attribute behind Node.document
            moved += 1
    return moved


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", rehome_nodes)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
