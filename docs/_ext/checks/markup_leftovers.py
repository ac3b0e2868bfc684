"""Warn about emphasis markers that reached the rendered text: ``**`` or ``__`` outside code.

CommonMark decides whether ``**`` opens or closes emphasis by what stands on
either side of it, and it does not count a CJK character as white space: in
``**所有{term}`张量`**`` the closing ``**`` follows a role and precedes a CJK
character, so it closes nothing, and the reader sees two literal asterisks.
MyST says nothing, in the source or in a translation. This check runs on the
finished doctree of either language and names the file and line.
"""

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

MARKERS = ("**", "__")
# Text in these is code or maths, where ** (power) and __ (dunder names) are content.
VERBATIM = (nodes.literal, nodes.literal_block, nodes.math, nodes.math_block, nodes.raw, nodes.comment,
            nodes.doctest_block, nodes.FixedTextElement, nodes.reference)


def leftover_markers(doctree: nodes.Node):
    """(node, marker) for every text node outside code and maths that still holds a marker."""
    for text in doctree.findall(nodes.Text):
        if any(isinstance(parent, VERBATIM) for parent in _ancestors(text)):
            continue
        for marker in MARKERS:
            if marker in text.astext():
                yield text, marker
                break


def _ancestors(node: nodes.Node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


def warn_leftovers(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    for text, marker in leftover_markers(doctree):
        element = text.parent
        line = element.line or (element.parent.line if element.parent is not None else None)
        logger.warning("literal %r in the rendered text (emphasis that CommonMark did not parse; next to "
                       "Chinese, put it on plain words or add a space): %r", marker, text.astext()[:60],
                       location=(docname, line), type="markup", subtype="leftover")


def setup(app: Sphinx) -> dict:
    app.connect("doctree-resolved", warn_leftovers)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
