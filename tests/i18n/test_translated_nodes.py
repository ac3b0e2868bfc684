"""Translated nodes re-homed in their page (docs/_ext/i18n/translated_nodes.py)."""

from docutils import nodes


def test_translated_nodes_are_rehomed_in_their_page():
    from docutils.utils import new_document
    from i18n.translated_nodes import rehome_nodes
    page, scratch = new_document("page"), new_document("scratch")
    paragraph = nodes.paragraph("", "")
    page += paragraph
    text = nodes.Text("translated")
    paragraph += text
    text._document = scratch  # as the i18n transform leaves it
    assert rehome_nodes(None, page) == 1
    assert text.document is page
    assert rehome_nodes(None, page) == 0
