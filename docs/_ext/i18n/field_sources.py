"""Give field-list bodies their Markdown source, so they are translated with their markup.

MyST builds a field body (``:param x: ...``, ``:returns: ...``) without a
``rawsource``. Sphinx's Python domain wraps the body in a translatable inline
node that copies that empty ``rawsource``, and Sphinx's i18n code then falls
back to ``node.astext()``: the message id loses every backtick, bold and role
(``None`` instead of `` `None` ``), so translators cannot keep the markup and
the markup lint has nothing to compare. Setting the body's ``rawsource`` to the
source of its paragraph, the text MyST itself records for a paragraph, fixes
that at the root: a field's msgid carries exactly the Markdown the page has.
A body of several paragraphs keeps Sphinx's plain-text fallback.
"""

from docutils import nodes
from myst_parser.mdit_to_docutils.base import DocutilsRenderer
from sphinx.application import Sphinx

_original_render_field_list = DocutilsRenderer.render_field_list


def body_source(field_body: nodes.field_body) -> str:
    """The Markdown source of a one-paragraph field body, else ``''``."""
    if len(field_body.children) == 1 and isinstance(field_body[0], nodes.paragraph):
        return field_body[0].rawsource
    return ""


def render_field_list_with_sources(self, token) -> None:
    _original_render_field_list(self, token)
    field_list = self.current_node.children[-1]
    for field_body in field_list.findall(nodes.field_body):
        if not field_body.rawsource:
            field_body.rawsource = body_source(field_body)


def setup(app: Sphinx) -> dict:
    DocutilsRenderer.render_field_list = render_field_list_with_sources
    return {"parallel_read_safe": True, "parallel_write_safe": True}
