"""Maths rendered at build time (docs/_ext/maths/katex_math.py), and the "On this page" column (page_contents.py).

A fixture project (tests/roots/test-katex/) is built once: its page has
inline and display maths, a formula KaTeX cannot read and an API entry in a
section titled with its name. The site's own pages are checked on the fresh
builds of ``html_builds``: every formula drawn, no maths script, the same
formulas in both languages.
"""

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import LANGUAGES, ROOT, html_dir
from docutils import nodes
from sphinx.errors import ExtensionError

from katex_survey import survey_page
from maths import katex_math
from reader.page_contents import with_heading_breaks, with_name_breaks, with_signature_breaks

pytestmark = pytest.mark.long  # conftest.py schedules it early

FIXTURE = ROOT / "tests" / "roots" / "test-katex"


@pytest.fixture(scope="module")
def fixture_build(tmp_path_factory) -> tuple[Path, subprocess.CompletedProcess]:
    out = tmp_path_factory.mktemp("katex") / "html"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(FIXTURE), str(out)],
                            capture_output=True, text=True, timeout=300)  # seconds; a one-page build
    return out, result


def soup_of(path: Path) -> BeautifulSoup:
    return BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")


# -- The fixture project ---------------------------------------------------------

def test_a_formula_katex_cannot_read_is_a_warning_with_file_and_line(fixture_build):
    out, result = fixture_build
    expected = (f"{FIXTURE / 'index.md'}:13: WARNING: cannot render this formula: KaTeX parse error: "
                "Undefined control sequence: \\undefinedcommand")
    assert expected in result.stderr, result.stderr
    shown = soup_of(out / "index.html").select("div.math code.math-error")
    assert [code.get_text() for code in shown] == ["\\frac{1}{\\undefinedcommand}"]


def test_formulas_are_in_the_html_and_no_maths_script_is(fixture_build):
    out, _ = fixture_build
    page = soup_of(out / "index.html")
    inline, blocks = page.select("article span.math"), page.select("article div.math")
    assert len(inline) == 2 and len(blocks) == 2
    assert all(m.select_one(".katex .katex-html") and m.select_one(".katex-mathml math") for m in inline)
    assert blocks[0].select_one(".katex-display .katex-html")
    scripts = [s.get("src", "") + s.get_text() for s in page.find_all("script")]
    assert not [s for s in scripts if re.search(r"mathjax|katex|MathJax", s)], scripts


def test_only_pages_with_maths_load_the_stylesheet_and_preload_its_fonts(fixture_build):
    out, _ = fixture_build
    links = {name: [(link.get("rel"), link["href"]) for link in soup_of(out / f"{name}.html").find_all("link")
                    if "katex" in link["href"]] for name in ("index", "plain")}
    assert links["plain"] == []
    hrefs = [href.split("?")[0] for _, href in links["index"]]
    assert hrefs == ["_static/katex/fonts/KaTeX_Main-Regular.woff2", "_static/katex/fonts/KaTeX_Math-Italic.woff2",
                     "_static/katex/katex.min.css"], links["index"]
    assert all((out / href).is_file() for href in hrefs)


def test_the_stylesheet_names_only_woff2_fonts_that_are_there(fixture_build):
    out, _ = fixture_build
    css = (out / "_static" / "katex" / "katex.min.css").read_text(encoding="utf-8")
    fonts = re.findall(r"url\(([^)]+)\)", css)
    assert len(fonts) == 20 and all(font.endswith(".woff2") for font in fonts), fonts
    assert all((out / "_static" / "katex" / font).is_file() for font in fonts)


def test_the_contents_column_lists_an_api_entry_once_and_breaks_its_name_after_dots(fixture_build):
    out, _ = fixture_build
    entries = [a.decode_contents() for a in soup_of(out / "index.html").select(".toc-tree a")]
    assert len(entries) == 2 and "StepLR" in entries[1], entries
    assert "torch.<wbr/>optim.<wbr/>lr_<wbr/>scheduler.<wbr/>StepLR" in entries[1]


# -- The pieces ------------------------------------------------------------------

def test_name_breaks_go_after_dots_and_underscores_inside_names_only():
    html = '<a href="#x.y_z">torch.nn.utils.clip_grad_norm_ ... x.</a>'
    assert with_name_breaks(html) == '<a href="#x.y_z">torch.<wbr>nn.<wbr>utils.<wbr>clip_<wbr>grad_<wbr>norm_ ... x.</a>'


def test_a_display_block_is_split_at_blank_lines_and_set_as_split_at_a_top_level_line_break():
    block = nodes.math_block("", "a &= b \\\\ c &= d\n\n\\begin{aligned} x &= 1 \\\\ y &= 2 \\end{aligned}\n\n\n")
    assert katex_math.equations(block) == ["\\begin{split}a &= b \\\\ c &= d\\end{split}",
                                           "\\begin{aligned} x &= 1 \\\\ y &= 2 \\end{aligned}"]
    assert katex_math.equations(nodes.math_block("", "a\n\nb", nowrap=True)) == ["a\n\nb"]


def test_an_operator_name_alone_in_a_script_is_one_argument_in_the_mathml():
    mathml = katex_math.KATEX.render("\\eta_{\\max} + v^{\\max}_t", False).mathml
    assert "<msub><mi>η</mi><mrow><mi>max</mi><mo>\u2061</mo></mrow></msub>" in mathml, mathml
    assert "<msubsup><mi>v</mi><mi>t</mi><mrow><mi>max</mi><mo>\u2061</mo></mrow></msubsup>" in mathml, mathml


def test_an_operator_spelled_in_letters_is_one_token_in_the_mathml():
    # \bmod and \mathbin{\mathrm{...}} put an mrow inside an <mo>, which MathML (and epubcheck) reject
    mathml = katex_math.KATEX.render("n \\bmod k + a \\mathbin{\\mathrm{xor}} b", False).mathml
    assert '<mo lspace="0.22em" rspace="0.22em">mod</mo>' in mathml, mathml
    assert '<mo lspace="0.22em" rspace="0.22em">xor</mo>' in mathml, mathml


def test_a_missing_node_or_katex_is_a_clear_error(monkeypatch):
    with pytest.raises(ExtensionError, match="'no-such-node' not found"):
        katex_math.KaTeX(node="no-such-node").render("x", False)
    monkeypatch.setattr(katex_math, "DIST", ROOT / "no-such-folder")
    with pytest.raises(ExtensionError, match="npm ci"):
        katex_math.KaTeX().render("x", False)


# -- The site ---------------------------------------------------------------------

@functools.cache
def survey(root: Path) -> tuple[list[str], dict[str, list[str]]]:
    """One pass over one language's build (seconds): its problems and its formulas, for the tests below.

    Problems: a page that loads a maths script or shows a formula not drawn at build time.
    Formulas: the TeX of every formula of every page (KaTeX keeps it in the MathML's annotation),
    the page's own only: those of the parallel view's counterparts (the other edition's text,
    hidden) are left out, so a draft whose units have no counterparts yet counts the same."""
    problems, formulas = [], {}
    for page in sorted(root.rglob("*.html")):
        name, found = page.relative_to(root).as_posix(), survey_page(page.read_text(encoding="utf-8"))
        problems += [f"{name}: a maths script: {script}" for script in found.scripts]
        problems += [f"{name}: not drawn: {''.join(f.text)[:60]!r}" for f in found.formulas if not f.drawn or f.error]
        if found.tex:
            formulas[name] = found.tex
    return problems, formulas


A_PAGE = """<script src="_static/x.js"></script><script>MathJax = {}</script><article>
<span class="math"><span class="katex"><span class="katex-mathml"><math><annotation>a^2</annotation></math></span>
<span class="katex-html">a²</span></span></span>
<div class="math"><code class="math-error">\\frac{1}{\\undefined}</code></div><span class="math">x</span>
<div class="parallel-counterpart"><span class="math"><span class="katex-mathml"><annotation>b</annotation></span>
<span class="katex-html">b</span></span></div></article><span class="math">outside</span>"""


def test_the_survey_finds_scripts_undrawn_formulas_and_the_page_s_own_tex():
    found = survey_page(A_PAGE)
    assert found.scripts == ["inline"]
    assert [(f.drawn, f.error) for f in found.formulas] == [(True, False), (False, True), (False, False), (True, False)]
    assert found.tex == ["a^2"], "the counterpart's TeX is not the page's"


TEXT_ARGUMENT = re.compile(r"\\text\{[^{}]*\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_formula_is_drawn_at_build_time_and_no_page_loads_a_maths_script(html_builds, language):
    assert html_builds[language].returncode == 0
    problems, formulas = survey(html_dir(language))
    assert problems == []
    assert sum(map(len, formulas.values())) > 900


def test_both_languages_show_the_same_formulas_up_to_their_words(html_builds):
    """Translated are only the words of ``\\text{}`` (bias for 偏差); every other symbol is the same.

    Compared as the set of distinct formulas per page: a translated sentence may name its formulas
    in another order, or a symbol once where the source names it twice ("$v$ ... $v$").
    """
    def symbols(formulas: list[str]) -> set[str]:
        return {TEXT_ARGUMENT.sub("T", formula) for formula in formulas}

    pages = {language: survey(html_dir(language))[1] for language in LANGUAGES}
    source, *translations = LANGUAGES
    for language in translations:
        assert pages[language].keys() == pages[source].keys()
        for page, formulas in pages[source].items():
            assert symbols(pages[language][page]) == symbols(formulas), f"{page}: the formulas differ in {language}"


def test_no_negative_height_or_width_is_left_in_katex_s_html():
    r"""The script of a big delimiter (\right\|_p) had style="height:-0.0983em", which CSS does not allow."""
    html = katex_math.KATEX.render("\\left\\| \\frac{a}{b} \\right\\|_p", False).html
    assert not re.search(r'style="[^"]*(?<![\w-])(?:min-|max-)?(?:height|width)\s*:\s*-', html), html
    assert katex_math.without_negative_sizes('<span class="vlist" style="height:-0.0983em;"><span style='
                                             '"top:-2.3em;height:0.5em;margin-left:-0.1em">') == \
        '<span class="vlist"><span style="top:-2.3em;height:0.5em;margin-left:-0.1em">'


def test_names_in_headings_and_signatures_break_after_dots_and_underscores():
    heading = '<h2>torch.optim.lr_scheduler.StepLR in 2.14<a class="headerlink" href="#a.b" title="x.y">¶</a></h2>'
    assert with_heading_breaks(heading) == ('<h2>torch.<wbr>optim.<wbr>lr_<wbr>scheduler.<wbr>StepLR in 2.14'
                                            '<a class="headerlink" href="#a.b" title="x.y">¶</a></h2>')
    signature = ('<dt class="sig sig-object py" id="torch.nn.utils.clip_grad_norm_">'
                 '<span class="sig-prename descclassname"><span class="pre">torch.nn.utils.</span></span>'
                 '<span class="sig-name descname"><span class="pre">clip_grad_norm_</span></span>'
                 '<em class="sig-param"><span class="n"><span class="pre">norm_type</span></span>'
                 '<span class="default_value"><span class="pre">2.0</span></span></em></dt>')
    assert with_signature_breaks(signature) == (
        '<dt class="sig sig-object py" id="torch.nn.utils.clip_grad_norm_">'
        '<span class="sig-prename descclassname"><span class="pre">torch.<wbr>nn.<wbr>utils.<wbr></span></span>'
        '<span class="sig-name descname"><span class="pre">clip_<wbr>grad_<wbr>norm_</span></span>'
        '<em class="sig-param"><span class="n"><span class="pre">norm_<wbr>type</span></span>'
        '<span class="default_value"><span class="pre">2.0</span></span></em></dt>')
