"""What Sphinx's ``epub`` builder needs to make valid, readable books of this site.

``make epub`` builds one book per language with Sphinx's own epub builder
(``_build/epub/<lang>/``). This module adds what that builder does not do:

* **Maths as MathML.** The site draws its maths in the browser with MathJax,
  which no e-reader runs. The books get MathML instead, converted at build
  time by docutils' LaTeX-to-MathML converter
  (``docutils.utils.math.latex2mathml``, part of the pinned docutils). It is
  registered as the math renderer ``mathml`` and selected for the epub
  builder only (``epub_math_renderer``); the HTML builders keep
  ``html_math_renderer = "mathjax"``. A formula the converter cannot read is a
  warning with its page and line, so no book ships raw TeX (the sources keep
  to TeX that MathJax and docutils both know: ``\\ldots``, ``\\bigl(``; see the contributor
  guide). What the converter gets wrong is put right here: it copies
  ``\\text{...}`` verbatim, so the text-mode escapes in it
  (``\\text{fan\\_in}``, which MathJax's textmacros needs) are resolved first;
  it puts an accented letter's subscript and an ``\\underbrace`` label in the
  wrong place (:func:`repair_scripts`); its ``displaystyle``/``scriptlevel``
  move to ``mstyle`` for MathML 3 (:func:`move_styles_to_mstyle`).
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
  furo variables of ``torch-notes.css``); the MathJax copy that
  sphinx-mathjax-offline puts into every output folder is removed from the
  book's (the next build would otherwise list its fonts in the manifest).
"""

import html
import re
import shutil
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path
from urllib.parse import unquote

from docutils import nodes
from docutils.utils.math import MathError, latex2mathml
from sphinx.application import Sphinx
from sphinx.builders.epub3 import HTML_TAG, Epub3Builder
from sphinx.config import Config
from sphinx.errors import ConfigError
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
HTML_ONLY_STYLESHEETS = frozenset({"_static/copybutton.css", "_static/plot_directive.css"})
STYLE_ATTRIBUTES = ("displaystyle", "scriptlevel")
ACCENTS = frozenset(latex2mathml.accents.values())  # \hat, \bar, \tilde, ...
BRACED = {"msub": ("munder", "\u23df"), "msup": ("mover", "\u23de")}  # \underbrace, \overbrace
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


# \text{fan\_in}: LaTeX's text-mode escapes inside \text and its synonyms.
TEXT_ARGUMENT = re.compile(r"\\(text|textrm|mbox)\s*\{([^{}]*)\}")
TEXT_ESCAPE = re.compile(r"\\([_%&#])")


def resolve_text_escapes(tex: str) -> str:
    r"""``\text{fan\_in}`` -> ``\text{fan_in}``: the converter shows \text arguments as they are."""
    return TEXT_ARGUMENT.sub(lambda m: "\\" + m[1] + "{" + TEXT_ESCAPE.sub(r"\1", m[2]) + "}", tex)


def move_styles_to_mstyle(root: ET.Element) -> None:
    """``displaystyle``/``scriptlevel`` only where MathML 3 allows them: on ``mstyle`` and ``mtable``.

    docutils puts them where MathML Core allows them (on ``mfrac`` for ``\\tfrac``, on
    ``mrow`` for ``{\\textstyle ...}``, on ``math``); epubcheck validates MathML 3.
    """
    def style_of(element: ET.Element) -> dict:
        return {name: element.attrib.pop(name) for name in STYLE_ATTRIBUTES if name in element.attrib}

    for parent in list(root.iter()):
        for index, child in enumerate(list(parent)):
            if child.tag in ("mstyle", "mtable") or not (style := style_of(child)):
                continue
            if child.tag == "mrow":  # an mstyle is an mrow with a style
                child.tag = "mstyle"
                child.attrib.update(style)
            else:
                wrapper = ET.Element("mstyle", style)
                wrapper.tail, child.tail = child.tail, None
                wrapper.append(child)
                parent[index] = wrapper
    if style := style_of(root):
        wrapper = ET.Element("mstyle", style)
        wrapper.extend(list(root))
        root[:] = [wrapper]


def repair_scripts(root: ET.Element) -> None:
    """Two scripts docutils 0.22 attaches wrongly (``handle_script_or_limit``), put right.

    * ``\\hat f_{\\mathcal{D}}``, ``\\bar x_i``: the subscript of an accented letter goes
      under the letter (``munderover``); it belongs beside it: ``msub(mover(f, ^), D)``.
    * ``\\underbrace{x}_{label}`` (``\\overbrace{x}^{label}``): the label becomes a
      subscript (``msub``) instead of going under (over) the brace.
    """
    for element in list(root.iter()):
        children = list(element)
        if (element.tag == "munderover" and len(children) == 3 and children[2].tag == "mo"
                and children[2].text in ACCENTS):
            base, script, accent = children
            accented = ET.Element("mover", {"accent": "true"})
            accented.extend([base, accent])
            element.tag = "msub"
            element[:] = [accented, script]
        elif element.tag in BRACED and len(children) == 2:
            braced, brace = BRACED[element.tag]
            inner = list(children[0])
            if children[0].tag == braced and len(inner) == 2 and inner[1].tag == "mo" and inner[1].text == brace:
                element.tag = braced


def tex_to_mathml(tex: str, block: bool = False) -> str:
    """One ``<math>`` element for ``tex``; raises ``MathError`` for TeX the converter does not know."""
    xml = latex2mathml.tex2mathml(resolve_text_escapes(tex), as_block=block)
    xml = re.sub(r">\n *<", "><", xml)  # its pretty-printing indentation, not content
    # docutils writes U+2061 as the HTML entity &ApplyFunction;, which XHTML does not define.
    root = ET.fromstring(xml.replace("&ApplyFunction;", "\u2061").replace(f' xmlns="{MATHML_NAMESPACE}"', "", 1))
    repair_scripts(root)
    move_styles_to_mstyle(root)
    root.attrib = {"xmlns": MATHML_NAMESPACE, **root.attrib}
    return ET.tostring(root, encoding="unicode")


def _converted(translator, node: nodes.Element, tex: str, block: bool) -> str:
    try:
        return tex_to_mathml(tex, block)
    except MathError as error:
        logger.warning("cannot convert this formula to MathML for the book: %s (%s)", error, tex,
                       location=node, type="epub", subtype="mathml")
        return translator.starttag(node, "code", CLASS="math-error") + translator.encode(tex) + "</code>"


def visit_math(self, node: nodes.math) -> None:
    self.body.append(_converted(self, node, node.astext(), block=False))
    raise nodes.SkipNode


def visit_math_block(self, node: nodes.math_block) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math"))
    if node.get("number"):
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})</span>')
    text = node.astext()
    # As sphinx.ext.mathjax does: paragraphs of a math block are separate equations.
    parts = [text] if node.get("no-wrap", node.get("nowrap", False)) else text.split("\n\n")
    for part in parts:
        if part.strip():
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


def remove_mathjax_copy(app: Sphinx, exception) -> None:
    if app.builder.name == "epub":
        shutil.rmtree(Path(app.outdir) / "_static" / "mathjax", ignore_errors=True)


def setup(app: Sphinx) -> dict:
    app.setup_extension("language_switcher")  # owns site_languages, the table of the languages
    app.add_builder(BookBuilder, override=True)
    app.connect("config-inited", describe_the_book, priority=800)  # after lang_overrides (100)
    app.add_html_math_renderer("mathml", (visit_math, None), (visit_math_block, None))
    # Read by the epub builder through get_builder_config("math_renderer", "html").
    app.add_config_value("epub_math_renderer", "mathml", "epub", types=frozenset({str}))
    app.connect("html-page-context", drop_html_only_stylesheets)
    app.connect("build-finished", remove_mathjax_copy, priority=900)  # after sphinx-mathjax-offline's copy
    return {"parallel_read_safe": True, "parallel_write_safe": True}
