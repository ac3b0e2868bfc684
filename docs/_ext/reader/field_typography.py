"""The punctuation of field lists (an API entry's 参数, 返回, 抛出 ...) in the page's language.

Sphinx writes a field label with an ASCII colon (``参数:``, docutils'
``<span class="colon">:</span>``) and puts `` -- `` between a parameter's
name and type and its description; SmartyPants turns that into an en dash,
but Sphinx does not "educate" Chinese (``smartquotes_excludes``), so the
Chinese site showed a literal ``--`` where the English one shows a dash.
For the languages in ``FIELD_PUNCTUATION`` the label ends with that
language's colon (``参数：``) and the separator is its dash (``——``, the
Chinese dash). Other languages keep Sphinx's own. The books get the same.
"""

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.writers.html5 import HTML5Translator

# language prefix: (label colon, separator between a parameter's name and type and its description)
FIELD_PUNCTUATION = {"zh": ("：", "——")}
SPHINX_SEPARATOR = " -- "  # sphinx.util.docfields


def punctuation(language: str | None) -> tuple[str, str] | None:
    return FIELD_PUNCTUATION.get((language or "").split("_")[0].split("-")[0])


def use_separator(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The language's dash for Sphinx's `` -- `` in the fields of every API entry."""
    found = punctuation(app.config.language)
    if not found:
        return
    for content in doctree.findall(addnodes.desc_content):
        for body in content.findall(nodes.field_body):
            for text in list(body.findall(nodes.Text)):
                if str(text) == SPHINX_SEPARATOR and isinstance(text.parent, nodes.paragraph):
                    text.parent.replace(text, nodes.Text(found[1]))


def depart_field_name(self: HTML5Translator, node: nodes.field_name) -> None:
    found = punctuation(self.config.language)
    if not found:
        return HTML5Translator.depart_field_name(self, node)
    self.body.append(f'<span class="colon">{found[0]}</span></dt>\n')


def setup(app: Sphinx) -> dict:
    app.add_node(nodes.field_name, override=True,
                 html=(HTML5Translator.visit_field_name, depart_field_name))
    app.connect("doctree-resolved", use_separator)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
