"""What Sphinx's ``epub`` builder needs to make valid, readable books of this site.

``make epub`` builds one book per language with Sphinx's own epub builder
(``_build/epub/<lang>/``). This module adds what that builder does not do:

* **Maths as MathML.** The books get the MathML of the rendering the site
  shows: KaTeX's, at build time (``katex_math.py``), so a formula reads the
  same in the site and the book. It is registered as the math renderer
  ``mathml`` and selected for the epub builder only (``epub_math_renderer``);
  the HTML builders use ``html_math_renderer = "katex"``. A formula KaTeX
  cannot read is a warning with its page and line, so no book ships raw TeX.
  Each ``<math>`` carries its TeX twice, as ``alttext`` (the text alternative
  a reader without MathML can show or speak) and as the ``annotation`` KaTeX
  writes. Table cells get their column's alignment and spacing on
  themselves (:func:`align_cells`): ``columnalign``/``columnspacing`` on
  ``mtable`` are MathML 3, which MathML Core (Chromium, so many readers) does
  not read, and without them ``aligned`` rows lose their alignment at ``&``.
* **The mathml property.** EPUB 3 requires ``properties="mathml"`` on every
  content document that holds MathML (epubcheck checks it); Sphinx's manifest
  has none, so ``content.opf`` is amended right after Sphinx writes it.
* **The book's identity, per language,** from the tables conf.py already has
  (so ``make add-language`` needs nothing more): ``epub_language`` is the
  language's ``hreflang`` in ``site_languages`` (a BCP 47 tag, ``zh-CN``, where
  Sphinx would write ``zh_CN``), ``epub_title`` the site's ``html_title``,
  ``epub_identifier`` a UUID derived from the project and the language, and
  ``epub_basename`` gives the file name ``<project>-<hreflang>.epub``
  (:func:`book_name`, which ``epub_downloads.py`` links to).
* **The language of every page.** Sphinx's epub3 pages carry no ``lang``;
  here each ``<html>`` gets ``lang`` and ``xml:lang`` from ``epub_language``.
  (``toc.ncx`` gets the book's identifier as its ``dtb:uid``, where Sphinx
  writes the id attribute's name, which epubcheck rejects.)
* **Nothing the book does not use.** The stylesheets of HTML-only features are
  left off the pages (copy buttons need scripts; matplotlib writes
  ``plot_directive.css`` at build-finished, after the book is zipped, so a
  first build would link a missing file) and, with the site's own static
  files, out of the book (``epub_exclude_files``; epubcheck cannot parse the
  furo variables of ``torch-notes.css``).
"""

import html
import re
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.epub3 import HTML_TAG, Epub3Builder
from sphinx.config import Config
from sphinx.errors import ConfigError
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

from maths import katex_math

logger = logging.getLogger(__name__)

MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
HTML_ONLY_STYLESHEETS = frozenset({"_static/copybutton.css", "_static/plot_directive.css"})
# Files of the site's output folder that are not the book's. Sphinx leaves .buildinfo.bak after
# a configuration change and warns that it has no media type.
SITE_ONLY_FILES = (*sorted(HTML_ONLY_STYLESHEETS), "_static/check-solid.svg", "_static/copy-button.svg",
                   "_static/torch-notes.css", "_static/favicon.svg", ".buildinfo.bak")


def book_name(project: str, hreflang: str) -> str:
    """The book's file name: ``torch-notes-zh-CN.epub``."""
    return f"{project}-{hreflang}.epub"


def describe_the_book(app: Sphinx, config: Config) -> None:
    """The epub_* values that follow from the language (see the module docstring)."""
    if config.language not in config.site_languages:
        raise ConfigError(f"site_languages has no entry for language {config.language!r}; add one to conf.py")
    hreflang = config.site_languages[config.language]["hreflang"]
    config.epub_language = hreflang
    config.epub_title = config.html_title
    config.epub_identifier = "urn:uuid:" + str(uuid.uuid5(uuid.NAMESPACE_URL, f"{config.project}/{hreflang}"))
    config.epub_basename = book_name(config.project, hreflang)[:-len(".epub")]
    config.epub_exclude_files = [*config.epub_exclude_files, *SITE_ONLY_FILES]


# MathML's default space between two columns.
DEFAULT_COLUMN_SPACING = "0.8em"


def _cycled(values: list[str], index: int) -> str:
    """The value of column ``index`` in a MathML list attribute, whose last value repeats."""
    return values[min(index, len(values) - 1)]


def align_cells(root: ET.Element) -> None:
    """Every ``mtd`` gets its column's ``columnalign`` and, as CSS, its alignment and spacing.

    KaTeX states them on the ``mtable`` (``columnalign="right left"``, ``columnspacing="0em"``
    for ``aligned``), as MathML 3 does; MathML Core renderers centre every cell and pad it on
    both sides instead, which breaks the alignment at ``&`` and the spacing of ``cases``.
    """
    for table in root.iter("mtable"):
        aligns = table.get("columnalign", "center").split()
        spacings = table.get("columnspacing", DEFAULT_COLUMN_SPACING).split()
        for row in (child for child in table if child.tag in ("mtr", "mlabeledtr")):
            cells = [cell for cell in row if cell.tag == "mtd"]
            for index, cell in enumerate(cells):
                align = cell.get("columnalign") or _cycled(aligns, index)
                space = _cycled(spacings, index - 1) if index else "0"  # the space before this column
                cell.set("columnalign", align)
                cell.set("style", f"text-align: {align}; padding-left: {space}; padding-right: 0")


def book_mathml(mathml: str, tex: str) -> str:
    """KaTeX's ``<math>`` for the book: ``alttext``, cells aligned (:func:`align_cells`)."""
    root = ET.fromstring(mathml.replace(f' xmlns="{MATHML_NAMESPACE}"', "", 1))
    align_cells(root)
    root.attrib = {"xmlns": MATHML_NAMESPACE, **root.attrib, "alttext": " ".join(tex.split())}
    return ET.tostring(root, encoding="unicode")


def tex_to_mathml(tex: str, block: bool = False) -> str:
    """The book's ``<math>`` element for ``tex``; raises ``katex_math.FormulaError`` for TeX KaTeX cannot read."""
    result = katex_math.KATEX.render(tex, block)
    if result.error:
        raise katex_math.FormulaError(result.error)
    return book_mathml(result.mathml, tex)


def _converted(translator, node: nodes.Element, tex: str, block: bool) -> str:
    result = katex_math.rendered(node, tex, block)
    if result.error:
        return katex_math.error_markup(translator, node, tex)
    return book_mathml(result.mathml, tex)


def visit_math(self, node: nodes.math) -> None:
    self.body.append(_converted(self, node, node.astext(), block=False))
    raise nodes.SkipNode


def visit_math_block(self, node: nodes.math_block) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node.get("number"):
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})</span>')
    for part in katex_math.equations(node):  # the equations the site shows, one <math> each
        self.body.append(_converted(self, node, part, block=True))
    self.body.append("</div>\n")
    raise nodes.SkipNode


MANIFEST_ITEM = re.compile(r'<item id="[^"]*" href="([^"]*)" media-type="application/xhtml\+xml" />')


def add_mathml_properties(opf: Path, root: Path) -> int:
    """Give every manifest item whose file holds MathML the ``mathml`` property; returns how many."""
    marked = 0

    def mark(match: re.Match) -> str:
        nonlocal marked
        page = root / unquote(html.unescape(match[1]))
        if f'<math xmlns="{MATHML_NAMESPACE}"' not in page.read_text(encoding="utf-8"):
            return match[0]
        marked += 1
        return match[0][:-len(" />")] + ' properties="mathml" />'

    opf.write_text(MANIFEST_ITEM.sub(mark, opf.read_text(encoding="utf-8")), encoding="utf-8")
    return marked


class BookBuilder(Epub3Builder):
    """Sphinx's epub3 builder, with the page language and the manifest's mathml property."""

    def init(self) -> None:
        super().init()
        language = html.escape(self.config.epub_language)
        self.html_tag = HTML_TAG[:-1] + f' lang="{language}" xml:lang="{language}">'

    def build_content(self) -> None:
        super().build_content()
        add_mathml_properties(self.outdir / "content.opf", self.outdir)

    def toc_metadata(self, level: int, navpoints: list) -> dict:
        # toc.ncx's dtb:uid must be the book's identifier; Sphinx writes the XML id (epub_uid) there.
        return {**super().toc_metadata(level, navpoints), "uid": html.escape(self.config.epub_identifier)}


def drop_html_only_stylesheets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    if app.builder.name == "epub" and "css_files" in context:
        context["css_files"] = [css for css in context["css_files"] if css.filename not in HTML_ONLY_STYLESHEETS]


def setup(app: Sphinx) -> dict:
    app.setup_extension("reader.language_switcher")  # owns site_languages, the table of the languages
    app.setup_extension("maths.katex_math")  # renders the formulas, for the site and the books alike
    app.add_builder(BookBuilder, override=True)
    app.connect("config-inited", describe_the_book, priority=800)  # after lang_overrides (100)
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_math_block, None))
    # Read by the epub builder through get_builder_config("math_renderer", "html").
    app.add_config_value("epub_math_renderer", "mathml", "epub", types=frozenset({str}))
    app.connect("html-page-context", drop_html_only_stylesheets)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
