"""Report hard-wrapped Chinese paragraphs.

Sphinx keeps a paragraph's line breaks in its message id, so re-wrapping a
hard-wrapped paragraph silently detaches it from its translation. The rule is
one paragraph, one line; this check warns (file and line) when a paragraph
with Chinese text contains a line break.
"""

import re

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging

logger = logging.getLogger(__name__)

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def is_hard_wrapped(text: str) -> bool:
    return "\n" in text.strip() and bool(CJK.search(text))


def check_paragraphs(app: Sphinx, doctree: nodes.document) -> None:
    for paragraph in doctree.findall(nodes.paragraph):
        # Literal text (code spans) may legitimately hold newlines; only prose counts.
        prose = "".join(t.astext() for t in paragraph.findall(nodes.Text)
                        if not isinstance(t.parent, nodes.literal))
        if is_hard_wrapped(prose):
            logger.warning(
                "hard-wrapped Chinese paragraph: keep one paragraph on one line "
                "(a line break becomes part of the translation's message id)",
                location=paragraph, type="i18n", subtype="hardwrap",
            )


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", check_paragraphs)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
