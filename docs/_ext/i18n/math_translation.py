"""A translated display formula keeps its TeX (the words of ``\\text{}`` are what a translator changes).

Sphinx translates a display formula (``math_block``, one of its literal
nodes) by parsing ``"::\\n\\n" + indented msgstr`` with the page's parser:
reStructuredText reads that as a literal block, MyST as a paragraph ``::``.
So a display formula whose translation differs from its source (on
init/regularization, ``\\text{偏差}`` becomes ``\\text{bias}``) showed ``::`` in
the English site and book. Here the source of every display formula is noted
just before Sphinx's ``Locale`` transform and, where that transform changed a
formula, the formula becomes the catalog's translation, as it stands.
"""

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.locale import init as init_locale
from sphinx.transforms import SphinxTransform
from sphinx.util.i18n import docname_to_domain

SOURCE = "math_translation_source"


class NoteMathSource(SphinxTransform):
    default_priority = 19  # Sphinx's Locale transform is 20

    def apply(self, **kwargs) -> None:
        for node in self.document.findall(nodes.math_block):
            node[SOURCE] = node.astext()


class KeepTranslatedMath(SphinxTransform):
    default_priority = 21

    def apply(self, **kwargs) -> None:
        changed = []
        for node in self.document.findall(nodes.math_block):
            source = node.attributes.pop(SOURCE, None)
            if source is not None and node.astext() != source:
                changed.append((node, source))
        if not changed:
            return
        domain = docname_to_domain(self.env.current_document.docname, self.config.gettext_compact)
        catalog, _ = init_locale([self.env.srcdir / d for d in self.config.locale_dirs], self.config.language,
                                 domain)
        for node, source in changed:
            translation = catalog.gettext(source)
            node.children = []
            node += nodes.Text(translation)
            node.rawsource = translation


def setup(app: Sphinx) -> dict:
    app.add_transform(NoteMathSource)
    app.add_transform(KeepTranslatedMath)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
