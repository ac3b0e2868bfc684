"""Two WCAG fixes in the HTML Sphinx writes, at the writer (axe-core's findings on every page).

* A toctree caption (the sidebar's "参考"/"Reference" headings, the captions
  of toctrees in a page) is written as ``<p class="caption" role="heading">``
  without ``aria-level``, which ARIA requires for the heading role
  (axe: aria-required-attr, critical). They sit one level under the page
  title, so they get ``aria-level="2"``.
* A code block wider than the page scrolls sideways, and a scrolling region
  must be reachable by keyboard (axe: scrollable-region-focusable, serious):
  the ``<pre>`` of every highlighted block gets ``tabindex="0"``, and so do
  the boxes furo puts around display maths and tables (``math-wrapper``,
  ``table-wrapper``), which scroll the same way on a phone.

The translator subclasses the builder's own, so everything else is Sphinx's.
"""

from docutils import nodes
from myst_parser.parsers.docutils_ import depart_container_html, visit_container_html
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

CAPTION_LEVEL = 2
SCROLLING_WRAPPERS = {"math-wrapper", "table-wrapper"}  # furo's containers with overflow-x: auto


class AccessibleHTMLTranslator(HTML5Translator):
    def visit_title(self, node: nodes.title) -> None:
        start = len(self.body)
        super().visit_title(node)
        if isinstance(node.parent, addnodes.compact_paragraph) and node.parent.get("toctree"):
            self.body[start] = self.body[start].replace(
                'role="heading"', f'role="heading" aria-level="{CAPTION_LEVEL}"', 1)

    def visit_literal_block(self, node: nodes.literal_block) -> None:
        start = len(self.body)
        try:
            super().visit_literal_block(node)
        finally:
            for i in range(start, len(self.body)):
                if '<div class="highlight"><pre>' in self.body[i]:
                    self.body[i] = self.body[i].replace('<div class="highlight"><pre>',
                                                        '<div class="highlight"><pre tabindex="0">', 1)


def visit_container(self, node: nodes.container) -> None:
    """MyST's visitor (it registers one for every container, over the translator's own), plus the tabindex."""
    start = len(self.body)
    visit_container_html(self, node)
    if SCROLLING_WRAPPERS.intersection(node["classes"]):
        self.body[start] = self.body[start].replace("<div ", '<div tabindex="0" ', 1)


def setup(app: Sphinx) -> dict:
    app.setup_extension("myst_parser")  # its add_node(nodes.container) first, so this one overrides it
    app.add_node(nodes.container, override=True, html=(visit_container, depart_container_html))
    for builder in ("html", "dirhtml", "singlehtml", "epub"):
        app.set_translator(builder, AccessibleHTMLTranslator, override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
