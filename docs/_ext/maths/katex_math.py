"""Maths rendered at build time by KaTeX: the pages arrive with their formulas drawn.

No maths script runs in the reader's browser. Every formula of a page is
rendered while Sphinx writes it, by KaTeX (the npm package pinned in
``tools/katex/package-lock.json``, installed by ``make`` with ``npm ci``), run
by node through ``tools/katex/render.mjs``: one node process per Sphinx
process, started at the first formula, fed one formula per line (about 0.4 ms
a formula; the formulas of a page go in one batch at ``doctree-resolved``).

* **The site** (renderer ``katex``, ``html_math_renderer`` in conf.py) gets
  KaTeX's HTML, which needs only ``_static/katex/katex.min.css`` and the
  woff2 fonts it names (copied from the package; the browser fetches only the
  fonts a page uses), with KaTeX's MathML beside it for screen readers. The
  stylesheet is linked from the pages that have maths only.
* **The books** (``epub_books.py``) get the MathML of the same rendering, so a
  formula means the same in the site and the book, in both languages.
* **Valid HTML**: KaTeX sets some boxes a negative height (the script of a
  big delimiter, ``\\right\\|_p``: ``style="height:-0.0983em"``), which CSS
  does not allow: browsers drop the declaration, and the Nu Html Checker
  reports an error. The build drops it too (``without_negative_sizes``): the
  page looks the same and is valid.
* **Errors**: TeX that KaTeX cannot read, and anything KaTeX would only have
  remarked on the console (strict mode), is a build warning with the page and
  line; the page then shows the TeX source in a ``code.math-error``.

A display block is split into equations at blank lines, as Sphinx's MathJax
renderer did; a block with a line break ``\\\\`` outside any environment is
set as a ``split`` (aligned at ``&``), also as MathJax did.
"""

import json
import os
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[3]
KATEX_DIR = ROOT / "tools" / "katex"
RENDER_SCRIPT = KATEX_DIR / "render.mjs"
DIST = KATEX_DIR / "node_modules" / "katex" / "dist"
STATIC = "katex"  # the folder under the output's _static/
STYLESHEET = "katex.min.css"
INSTALL = "cd tools/katex && npm ci (make html does it)"
# The src of KaTeX's @font-face rules lists woff2, woff and ttf; every browser that runs the site reads woff2.
OTHER_FONT_FORMATS = re.compile(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)')
# Every formula is set in these two (upright and italic letters, digits, operators).
PRELOADED_FONTS = ("KaTeX_Main-Regular.woff2", "KaTeX_Math-Italic.woff2")
MATHML = re.compile(r"<math\b.*?</math>", re.DOTALL)
MATHML_NAMESPACE = "http://www.w3.org/1998/Math/MathML"
# Elements whose children are their arguments: a base and its scripts, numerator and denominator.
ARITY = {"msub": 2, "msup": 2, "msubsup": 3, "munder": 2, "mover": 2, "munderover": 3, "mfrac": 2, "mroot": 2}
FUNCTION_APPLICATION = "\u2061"
SPELLED_OPERATOR = re.compile(r"<mo\b[^>]*><mrow>")
STYLE = re.compile(r'(\s)style="([^"]*)"')
NEGATIVE_SIZE = re.compile(r"(?<![\w-])(?:min-|max-)?(?:height|width)\s*:\s*-[^;]*;?")


def repair_mathml(mathml: str) -> str:
    r"""KaTeX 0.19's MathML with its two known defects put right (the HTML is not affected).

    An operator name alone in a script or a fraction (``\eta_{\max}``, ``v^{\max}_t``) becomes two
    nodes, ``<mi>max</mi><mo>&#x2061;</mo>``, without the ``mrow`` that would make them one argument:
    ``msub`` gets three children, which MathML (and epubcheck) reject. Such a pair is wrapped.

    A binary operator spelled in letters (``n \bmod k``, ``\mathbin{\mathrm{xor}}``) becomes an
    ``<mo>`` holding an ``mrow`` of one-letter ``<mi>``; a token element holds text only, so the
    letters become the operator's text.
    """
    if f"<mo>{FUNCTION_APPLICATION}</mo>" not in mathml and not SPELLED_OPERATOR.search(mathml):
        return mathml
    root = ET.fromstring(mathml.replace(f' xmlns="{MATHML_NAMESPACE}"', "", 1))
    changed = False
    for operator in list(root.iter("mo")):
        if len(operator) and all(len(leaf) == 0 for row in operator for leaf in row):
            operator.text = "".join(operator.itertext())
            operator[:] = []
            changed = True
    for element in root.iter():
        children = list(element)
        if element.tag not in ARITY or len(children) <= ARITY[element.tag]:
            continue
        grouped = []
        for child in children:
            if grouped and child.tag == "mo" and child.text == FUNCTION_APPLICATION and grouped[-1].tag != "mrow":
                row = ET.Element("mrow")
                row.extend([grouped.pop(), child])
                grouped.append(row)
            else:
                grouped.append(child)
        element[:] = grouped
        changed = True
    if not changed:
        return mathml
    root.attrib = {"xmlns": MATHML_NAMESPACE, **root.attrib}
    return ET.tostring(root, encoding="unicode")


def without_negative_sizes(html: str) -> str:
    """KaTeX's HTML without the negative heights and widths in its style attributes, which CSS forbids and
    browsers ignore (a style left empty goes too)."""
    def clean(m: re.Match) -> str:
        style = NEGATIVE_SIZE.sub("", m[2])
        return f'{m[1]}style="{style}"' if style.strip() else ""
    return STYLE.sub(clean, html)


class FormulaError(ValueError):
    """TeX that KaTeX cannot read (its message)."""


@dataclass
class Rendered:
    """One formula as KaTeX drew it: ``html`` (with its MathML inside), or the ``error``."""

    html: str = ""
    error: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def mathml(self) -> str:
        """The ``<math>`` element of the rendering (KaTeX's MathML, with the TeX as its annotation)."""
        found = MATHML.search(self.html)
        return found.group() if found else ""


class KaTeX:
    """A node process running render.mjs, started on first use (and again in a forked process)."""

    def __init__(self, node: str = "node"):
        self.node = node
        self.process: subprocess.Popen | None = None
        self.pid = 0
        self.cache: dict[tuple[str, bool], Rendered] = {}
        self.lock = threading.Lock()

    def _start(self) -> subprocess.Popen:
        if not shutil.which(self.node):
            raise ExtensionError(f"katex_math: {self.node!r} not found; the maths is rendered by node at build time")
        if not (DIST / "katex.mjs").is_file():
            raise ExtensionError(f"katex_math: KaTeX is not installed in {KATEX_DIR}; run {INSTALL}")
        self.process = subprocess.Popen([self.node, str(RENDER_SCRIPT)], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, encoding="utf-8", bufsize=1)
        self.pid = os.getpid()
        return self.process

    def render_many(self, formulas: list[tuple[str, bool]]) -> list[Rendered]:
        """Each (tex, display) rendered, in order; the ones seen before come from the cache."""
        with self.lock:
            missing = list(dict.fromkeys(f for f in formulas if f not in self.cache))
            if missing:
                process = self.process if self.process and self.pid == os.getpid() else self._start()
                process.stdin.write("".join(json.dumps({"tex": tex, "display": display}) + "\n"
                                            for tex, display in missing))
                process.stdin.flush()
                for formula in missing:
                    line = process.stdout.readline()
                    if not line:
                        raise ExtensionError(f"katex_math: the KaTeX process ended (exit code {process.poll()})")
                    result = Rendered(**json.loads(line))
                    result.html = without_negative_sizes(result.html)
                    if mathml := result.mathml:
                        result.html = result.html.replace(mathml, repair_mathml(mathml), 1)
                    self.cache[formula] = result
            return [self.cache[f] for f in formulas]

    def render(self, tex: str, display: bool) -> Rendered:
        return self.render_many([(tex, display)])[0]

    def close(self) -> None:
        if self.process and self.pid == os.getpid():
            self.process.stdin.close()
            self.process.wait(timeout=10)
        self.process = None


KATEX = KaTeX()


# -- TeX of a node --------------------------------------------------------------------
def _has_top_level_newline(tex: str) -> bool:
    r"""Whether ``\\`` occurs outside every ``\begin{...}...\end{...}`` of ``tex``."""
    depth = 0
    for token in re.finditer(r"\\begin\{[^}]*\}|\\end\{[^}]*\}|\\\\", tex):
        if token.group().startswith("\\begin"):
            depth += 1
        elif token.group().startswith("\\end"):
            depth -= 1
        elif depth == 0:
            return True
    return False


def equations(node: nodes.math_block) -> list[str]:
    """The equations of a display block: its paragraphs (all of it when ``nowrap``), as MathJax set them."""
    text = node.astext()
    parts = [text] if node.get("no-wrap", node.get("nowrap", False)) else text.split("\n\n")
    return [r"\begin{split}" + part + r"\end{split}" if _has_top_level_newline(part) else part
            for part in parts if part.strip()]


def formulas_of(doctree: nodes.Node) -> list[tuple[str, bool]]:
    found = []
    for node in doctree.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block))):
        if isinstance(node, nodes.math_block):
            found += [(part, True) for part in equations(node)]
        else:
            found.append((node.astext(), False))
    return found


def rendered(node: nodes.Element, tex: str, display: bool) -> Rendered:
    """The rendering of one formula of ``node``; its problems are warnings at the node's page and line."""
    result = KATEX.render(tex, display)
    for remark in result.warnings:
        logger.warning("KaTeX: %s (%s)", remark, tex, location=node, type="katex", subtype="strict")
    if result.error:  # without the combining underlines with which KaTeX marks the place
        logger.warning("cannot render this formula: %s (%s)", result.error.replace("\u0332", ""), tex,
                       location=node, type="katex", subtype="error")
    return result


def error_markup(translator, node: nodes.Element, tex: str) -> str:
    return translator.starttag(node, "code", "", CLASS="math-error") + translator.encode(tex) + "</code>"


# -- HTML ------------------------------------------------------------------------------
def html_visit_math(self, node: nodes.math) -> None:
    tex = node.astext()
    result = rendered(node, tex, display=False)
    self.body.append(self.starttag(node, "span", "", CLASS="math notranslate"))
    self.body.append(result.html or error_markup(self, node, tex))
    self.body.append("</span>")
    raise nodes.SkipNode


def html_visit_displaymath(self, node: nodes.math_block) -> None:
    self.body.append(self.starttag(node, "div", CLASS="math notranslate"))
    if node.get("number"):
        self.body.append(f'<span class="eqno">({get_node_equation_number(self, node)})')
        self.add_permalink_ref(node, _("Link to this equation"))
        self.body.append("</span>")
    for part in equations(node):
        result = rendered(node, part, display=True)
        self.body.append(result.html or error_markup(self, node, part))
    self.body.append("</div>\n")
    raise nodes.SkipNode


def render_page_at_once(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """All the formulas of a page in one exchange with node, before the writer asks for them one by one."""
    if getattr(app.builder, "format", "") == "html":
        if found := formulas_of(doctree):
            KATEX.render_many(found)


def link_stylesheet(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """On a page with maths: the stylesheet, and the two fonts every formula uses, fetched at once.

    Without the preload the browser asks for a font only once it has laid the page out with
    another, and the text beside each inline formula moves when the font arrives (layout shift).
    """
    if getattr(app.builder, "math_renderer_name", None) != "katex" or not context.get("has_maths_elements"):
        return
    app.builder.add_css_file(f"{STATIC}/{STYLESHEET}")
    preloads = "".join(f'\n<link rel="preload" href="{context["pathto"](f"_static/{STATIC}/fonts/{font}", 1)}"'
                       ' as="font" type="font/woff2" crossorigin>' for font in PRELOADED_FONTS)
    context["metatags"] = context.get("metatags", "") + preloads


def copy_assets(app: Sphinx) -> None:
    """KaTeX's stylesheet (woff2 fonts only) and its woff2 fonts, into the site's _static/katex/.

    Before the pages are written, so that their links carry the stylesheet's checksum (``?v=``).
    """
    if getattr(app.builder, "math_renderer_name", None) != "katex":
        return
    if not (DIST / STYLESHEET).is_file():
        raise ExtensionError(f"katex_math: KaTeX is not installed in {KATEX_DIR}; run {INSTALL}")
    target = Path(app.outdir) / "_static" / STATIC
    (target / "fonts").mkdir(parents=True, exist_ok=True)
    css = OTHER_FONT_FORMATS.sub("", (DIST / STYLESHEET).read_text(encoding="utf-8"))
    (target / STYLESHEET).write_text(css, encoding="utf-8")
    for font in sorted((DIST / "fonts").glob("*.woff2")):
        destination = target / "fonts" / font.name
        if not destination.is_file() or destination.stat().st_size != font.stat().st_size:
            shutil.copyfile(font, destination)


def choose_katex(app: Sphinx, config) -> None:
    """KaTeX for the HTML builders unless conf.py names another renderer (Sphinx cannot choose among three)."""
    if config.html_math_renderer is None:
        config.html_math_renderer = "katex"


def stop_node(app: Sphinx, exception) -> None:
    KATEX.close()


def setup(app: Sphinx) -> dict:
    app.add_html_math_renderer("katex", (html_visit_math, None), (html_visit_displaymath, None))
    app.connect("config-inited", choose_katex)
    app.connect("doctree-resolved", render_page_at_once)
    app.connect("html-page-context", link_stylesheet)
    app.connect("builder-inited", copy_assets)
    app.connect("build-finished", stop_node, priority=950)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
