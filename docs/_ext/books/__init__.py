"""The EPUB books, one per language: what Sphinx's ``epub`` builder needs to make valid books
(maths as MathML, metadata, file names), and every page's links to them.

May import: ``maths`` (KaTeX's rendering), ``reader`` (which editions a page links to).
"""
