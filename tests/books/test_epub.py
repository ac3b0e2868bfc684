"""The EPUB books: `make epub` builds one per language, epubcheck passes, maths is MathML, the site links to both.

Both books are built through the Makefile into the suite's build folder, from
the doctrees of the HTML builds (``html_builds``), so only the writing is paid
for. ``make html`` afterwards, with nothing left to read, puts each book into
its site, whose pages all link to both.
"""

import ast
import html
import re
import shutil
import xml.etree.ElementTree as ElementTree
import zipfile
from pathlib import Path

import pytest
from bs4 import BeautifulSoup, SoupStrainer
from conftest import BUILDDIR, LANGUAGES, ROOT, Run, html_dir, make, run_build, run_parallel
from site_formulas import site_formulas

from books.epub_books import add_mathml_properties, book_name, tex_to_mathml
from maths.katex_math import FormulaError
from books.epub_downloads import book_links
from reader.language_switcher import linked

pytestmark = pytest.mark.long  # conftest.py schedules it early

MATHML = "http://www.w3.org/1998/Math/MathML"
MATH = f"{{{MATHML}}}math"
# What TeX looks like when it reaches a page unconverted: MathJax's delimiters, $$, or a command.
# (The TeX that every formula carries on purpose, its alttext and annotation, is not looked at.)
RAW_TEX = re.compile(r"\\[()\[\]]|\$\$|\\[A-Za-z]+")


def conf_value(name: str):
    """A literal setting of conf.py, read as tools/catalogs/add_language.py reads it."""
    for node in ast.parse((ROOT / "conf.py").read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == name:
            return ast.literal_eval(node.value)
    raise KeyError(name)


PROJECT = conf_value("project")
SITE_LANGUAGES = conf_value("site_languages")
HREFLANG = {language: SITE_LANGUAGES[language]["hreflang"] for language in LANGUAGES}


def book_path(language: str) -> Path:
    return BUILDDIR / "epub" / language / book_name(PROJECT, HREFLANG[language])


# epubcheck runs for about 25 s, too short for the JVM's optimizing compiler and parallel collector to pay
# for themselves: with the quick compiler alone and the serial collector, a book took 24 instead of 43 processor
# seconds (the same report, the same wall time).
JVM_OPTIONS = ["-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"]


def epubcheck_command() -> list[str]:
    """Debian's /usr/bin/epubcheck is a link to the jar, run through binfmt_misc (absent in containers)."""
    found = shutil.which("epubcheck")
    assert found, "epubcheck is missing: make test installs it (tools/workflow/system_deps.py)"
    target = Path(found).resolve()
    return ["java", *JVM_OPTIONS, "-jar", str(target)] if target.suffix == ".jar" else [found]


def read_book(language: str) -> dict[str, str]:
    """Every text file of the book, by its path in the zip."""
    with zipfile.ZipFile(book_path(language)) as book:
        return {name: book.read(name).decode("utf-8") for name in book.namelist()
                if name.endswith((".xhtml", ".opf", ".ncx", ".css"))}


def pages(files: dict[str, str]) -> dict[str, str]:
    return {name: text for name, text in files.items() if name.endswith(".xhtml")}


# What prose leaves out of a page: code (it may hold backslashes), the other language's counterparts, TeX
# annotations. One list for both readers, prose (BeautifulSoup) and book_prose (ElementTree).
LEFT_OUT_ELEMENTS = ("pre", "code", "annotation")
LEFT_OUT_CLASSES = ("parallel-counterpart",)


def prose(markup: str, only: SoupStrainer | None = None) -> BeautifulSoup:
    """The page without what LEFT_OUT_ELEMENTS and LEFT_OUT_CLASSES name."""
    soup = BeautifulSoup(markup, "html.parser", parse_only=only)
    for element in soup.select(", ".join([*LEFT_OUT_ELEMENTS, *(f".{name}" for name in LEFT_OUT_CLASSES)])):
        element.decompose()
    return soup


def local_name(element: ElementTree.Element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def left_out_of_prose(element: ElementTree.Element) -> bool:
    return (local_name(element) in LEFT_OUT_ELEMENTS
            or any(name in LEFT_OUT_CLASSES for name in element.get("class", "").split()))


def book_prose(xhtml: str) -> ElementTree.Element:
    """What ``prose`` leaves of a page, for a book's page: XHTML is XML, and ElementTree reads the pages of both
    books in under a second where BeautifulSoup's trees took 23 processor seconds. A left-out element's tail
    (the text after it, which ElementTree keeps on the element) stays in the page."""
    root = ElementTree.fromstring(xhtml)
    for parent in list(root.iter()):
        kept = None
        for child in list(parent):
            if not left_out_of_prose(child):
                kept = child
                continue
            if child.tail:
                if kept is None:
                    parent.text = (parent.text or "") + child.tail
                else:
                    kept.tail = (kept.tail or "") + child.tail
            parent.remove(child)
    return root


def maths(element: ElementTree.Element) -> list[ElementTree.Element]:
    """Every math element in ``element``, in whatever namespace (the raw-TeX test says when it is not MathML's)."""
    return [e for e in element.iter() if local_name(e) == "math"]


def text_of(element: ElementTree.Element, separator: str = "") -> str:
    return separator.join(element.itertext())


@pytest.fixture(scope="session")
def epub_build(site_builds) -> Run:
    """``make epub`` into an emptied folder (every page written), made with the site's builds (conftest.build_site)."""
    return site_builds["epub"]


@pytest.fixture(scope="session")
def books(epub_build) -> dict[str, dict[str, str]]:
    assert epub_build.returncode == 0, epub_build.output[-3000:]
    return {language: read_book(language) for language in LANGUAGES}


@pytest.fixture(scope="session")
def book_pages(books) -> dict[str, dict[str, ElementTree.Element]]:
    """Every page of every book, parsed once, without its code."""
    return {language: {name: book_prose(text) for name, text in pages(files).items()}
            for language, files in books.items()}


@pytest.fixture(scope="session")
def epubcheck_runs(epub_build) -> dict[str, Run]:
    return run_parallel({language: [*epubcheck_command(), str(book_path(language))] for language in LANGUAGES})


@pytest.fixture(scope="session")
def site_with_books(site_builds) -> Run:
    """``make html``: the sites (nothing left to read), the books again, each book copied into its site."""
    run = site_builds["html"]
    assert run.returncode == 0 and not run.warnings(), run.output[-3000:]
    return run


# -- The build ---------------------------------------------------------------

def test_make_epub_builds_every_book_without_warnings(epub_build):
    assert epub_build.returncode == 0 and not epub_build.warnings(), (
        f"{epub_build.command} failed or warned:\n" + "\n".join(epub_build.warnings() or
                                                               epub_build.output.splitlines()[-30:]))
    for language in LANGUAGES:
        assert book_path(language).is_file(), f"no book for {language} at {book_path(language)}"


def test_the_books_read_no_page_the_html_builds_read(epub_build):
    """The books are written from the HTML builds' doctrees: a build that reads pages again (-a compiles every
    catalog, and each translated page depends on its .mo) costs the English book half a minute."""
    readings = re.findall(r"^\[(\S+)\] updating environment: (.*)$", epub_build.output, re.MULTILINE)
    assert sorted(readings) == sorted((language, "0 added, 0 changed, 0 removed") for language in LANGUAGES), readings


@pytest.mark.parametrize("language", LANGUAGES)
def test_epubcheck_finds_no_error_and_no_warning(epubcheck_runs, language):
    run = epubcheck_runs[language]
    problems = [line for line in run.output.splitlines() if re.match(r"(FATAL|ERROR|WARNING)\(", line)]
    assert run.returncode == 0 and not problems and "No errors or warnings detected." in run.output, (
        f"{run.command}:\n" + "\n".join(problems[:40] or run.output.splitlines()[-20:]))


# -- Maths ---------------------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_no_raw_tex_in_any_page_of_the_book(books, book_pages, language):
    found = []
    for name, page in book_pages[language].items():
        for math in maths(page):
            if math.tag != MATH:
                found.append(f"{name}: a math element outside the MathML namespace: {math.tag}")
            if "\\" in text_of(math):
                found.append(f"{name}: TeX inside MathML: {text_of(math)[:80]!r}")
        text = text_of(page)
        for match in RAW_TEX.finditer(text):
            found.append(f"{name}: {text[max(0, match.start() - 30):match.end() + 30]!r}")
        if 'class="math notranslate' in books[language][name] or 'class="katex' in books[language][name]:
            found.append(f"{name}: the site's maths markup")
    assert not found, "raw TeX in the book:\n" + "\n".join(found[:40])


def book_maths(page: ElementTree.Element) -> tuple[int, int]:
    """(inline formulas, display blocks) on a page of the book, in MathML."""
    blocks = [e for e in page.iter() if local_name(e) == "div" and "math" in e.get("class", "").split()]
    in_blocks = {id(math) for block in blocks for math in maths(block)}
    inline = [math for math in maths(page) if id(math) not in in_blocks]
    assert all(maths(block) for block in blocks), "a display block without MathML"
    return len(inline), len(blocks)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_formula_of_the_site_is_mathml_in_the_book(html_builds, book_pages, language):
    files = book_pages[language]
    differences, total = [], 0
    for page in sorted(html_dir(language).rglob("*.html")):
        name = page.relative_to(html_dir(language)).with_suffix(".xhtml").as_posix()
        site = site_formulas(page.read_text(encoding="utf-8"))
        if name in files:
            book = book_maths(files[name])
            total += sum(book)
            if book != site:
                differences.append(f"{name}: site {site}, book {book} (inline, display)")
        elif sum(site):
            differences.append(f"{name}: {site} formulas on the site, no page in the book")
    assert not differences, "maths differ between site and book:\n" + "\n".join(differences)
    assert total > 300, f"only {total} formulas in the whole book"


FORMULAS_OF_A_PAGE = """<nav><span class="math">not in the article</span></nav><article>
<p>a <span class="math notranslate">x</span> and <code><span class="math">code</span></code><br/><img src="i.png"></p>
<div class="math"><math><annotation><span class="math">TeX</span></annotation></math></div>
<div class="parallel-counterpart"><p><span class="math">the other language</span></p></div>
<p><span class="mathnormal">a KaTeX class</span> <em>unclosed <span class="math">y</span></p></article>
<span class="math">after the article</span>"""


def test_the_site_s_formulas_are_counted_where_a_reader_sees_them():
    assert site_formulas(FORMULAS_OF_A_PAGE) == (2, 1)
    soup = prose(FORMULAS_OF_A_PAGE, SoupStrainer("article"))  # what was counted with a tree
    assert (len(soup.select("span.math")), len(soup.select("div.math"))) == (2, 1)


@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_with_mathml_and_only_they_have_the_mathml_property(books, language):
    opf = books[language]["content.opf"]
    declared = {href for href in re.findall(r'<item id="[^"]*" href="([^"]*)"[^>]*properties="mathml"', opf)}
    holding = {name for name, text in pages(books[language]).items() if f'<math xmlns="{MATHML}"' in text}
    assert holding and declared == holding


# -- What a book's pages say -----------------------------------------------------

# Site furniture a book does not have: the sidebar, the buttons, the links at the end of each page.
# The words of both published editions; a new language's draft shows one of them until translated.
SITE_FURNITURE = re.compile(r"按钮|侧边栏|左侧|右上角|\bbuttons?\b|\bsidebar\b|on the left|top right", re.IGNORECASE)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_page_of_the_book_does_not_talk_about_the_site_s_buttons(html_builds, book_pages, language):
    site_text = prose((html_dir(language) / "index.html").read_text(encoding="utf-8")).select_one("article").get_text()
    assert len(set(SITE_FURNITURE.findall(site_text))) >= 2, "the site's first page should describe its controls"
    book_text = text_of(book_pages[language]["index.xhtml"], " ")
    found = sorted({m.group() for m in SITE_FURNITURE.finditer(book_text)})
    assert not found, f"{language}: the book's first page talks about the site's controls: {found}"


# -- Language and style --------------------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_the_book_and_every_page_declare_the_language(books, language):
    files, tag = books[language], HREFLANG[language]
    assert re.search(rf"<dc:language>{re.escape(tag)}</dc:language>", files["content.opf"])
    assert re.search(rf'<package [^>]*xml:lang="{re.escape(tag)}"', files["content.opf"])
    wrong = []
    for name, text in pages(files).items():
        html = re.search(r"<html [^>]*>", text).group()
        if f'lang="{tag}"' not in html or f'xml:lang="{tag}"' not in html:
            wrong.append(f"{name}: {html}")
    assert not wrong, f"pages not declared {tag}:\n" + "\n".join(wrong[:20])


def css_rule(css: str, selector: str) -> str:
    """The declarations of every rule whose selector list names ``selector``."""
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
    return "\n".join(body for selectors, body in rules if selector in [s.strip() for s in selectors.split(",")])


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_books_stylesheet_has_cjk_fonts_and_wraps_code(books, language):
    files = books[language]
    linked = set(re.findall(r'href="(?:\.\./)*(_static/[^"]+\.css)"', files["index.xhtml"]))
    css = "\n".join(files[name] for name in sorted(linked) if name in files)
    body, pre = css_rule(css, "body"), css_rule(css, "pre")
    monospace = css_rule(css, "pre") + css_rule(css, "code")
    assert re.search(r"font-family:[^;]*(Noto Sans CJK SC|Source Han Sans SC)", body), "no CJK font for the text"
    assert re.search(r"white-space:\s*pre-wrap", pre), "long code lines would run off the page"
    assert re.search(r"font-family:[^;]*Noto Sans Mono CJK SC[^;]*monospace", monospace), "no CJK monospace"


# -- The site's links to the books ---------------------------------------------

# The paragraph docs/_templates/page.html writes, cut out of the page before it is parsed: a tree of the whole
# page cost 0.1 s per page, this test's whole time. Markup written another way finds no link, and the test fails.
DOWNLOADS = re.compile(r'<p class="epub-downloads">.*?</p>', re.S)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_the_site_links_to_every_linked_book(site_with_books, language):
    root = html_dir(language)
    problems, checked = [], 0
    for page in sorted(root.rglob("*.html")):
        soup = BeautifulSoup("".join(DOWNLOADS.findall(page.read_text(encoding="utf-8"))), "html.parser")
        links = soup.select("p.epub-downloads a.epub-download")
        found = [link.get("hreflang") for link in links]
        books = [language] + [other for other in linked(SITE_LANGUAGES, language) if other != language]
        expected = [HREFLANG[code] for code in books]
        if found != expected:
            problems.append(f"{page}: books {found}, expected {expected}")
            continue
        for link, other in zip(links, books):
            target = (page.parent / link["href"]).resolve()
            if target != (html_dir(other) / book_path(other).name).resolve() or not target.is_file():
                problems.append(f"{page}: {link['href']} does not lead to {other}'s book")
            elif target.read_bytes() != book_path(other).read_bytes():
                problems.append(f"{page}: {link['href']} is not the book make epub built")
            if link.get_text() != SITE_LANGUAGES[other]["label"] or link.get("lang") != HREFLANG[other]:
                problems.append(f"{page}: the link to {other}'s book reads {link.get_text()!r}")
        checked += 1
    assert checked > 50 and not problems, "\n".join(problems[:30])


# -- The pieces, without a build -----------------------------------------------

@pytest.mark.parametrize("language", LANGUAGES)
def test_every_formula_of_the_book_has_its_tex_as_text_alternative(book_pages, language):
    missing = []
    for name, page in book_pages[language].items():
        for math in maths(page):
            if not math.get("alttext", "").strip():
                missing.append(f"{name}: {text_of(math)[:60]!r}")
    assert not missing, "formulas without alttext:\n" + "\n".join(missing[:20])


def test_a_book_page_s_prose_is_what_prose_leaves_of_it():
    """book_prose (ElementTree) and prose (BeautifulSoup) leave the same text: here the text after each element
    left out, which ElementTree keeps on that element (on every page of both books: the same text, maths and
    alttext, whitespace aside)."""
    xhtml = ('<html xmlns="http://www.w3.org/1999/xhtml"><body><p>before <code>x</code> after'
             '<span class="parallel-counterpart">其他</span> end <em>kept</em><code>y</code> last</p>'
             f'<pre>code</pre>tail<math xmlns="{MATHML}" alttext="x"><mi>x</mi><annotation>\\x</annotation></math>'
             '</body></html>')
    assert text_of(book_prose(xhtml)) == prose(xhtml).get_text() == "before  after end kept lasttailx"


@pytest.mark.parametrize("tex, expected", [
    (r"\text{fan\_in}", "<mtext>fan_in</mtext>"),  # text-mode escapes resolved
    (r"\log x", "<mi>log</mi><mo>\u2061</mo>"),  # the character, not the HTML entity &ApplyFunction;
    (r"\hat f_{\mathcal{D}}", '<msub><mover accent="true"><mi>f</mi>'),  # the subscript beside the accent
    (r"\underbrace{x}_{\text{a}}", '<munder><munder><mi>x</mi><mo stretchy="true">\u23df</mo></munder><mtext>a</mtext>'),
    (r"\tfrac{1}{2}", '<mstyle scriptlevel="0" displaystyle="false"><mfrac>'),  # MathML 3: styles on mstyle
    (r"\eta_{\max}", "<msub><mi>\u03b7</mi><mrow><mi>max</mi><mo>\u2061</mo></mrow></msub>"),  # one argument
    # aligned: each cell aligned itself (MathML Core ignores columnalign on mtable), no space at the &
    (r"\begin{aligned} a &= b \\ c &= d \end{aligned}",
     '<mtd columnalign="right" style="text-align: right; padding-left: 0; padding-right: 0">'),
    (r"\begin{aligned} a &= b \\ c &= d \end{aligned}",
     '<mtd columnalign="left" style="text-align: left; padding-left: 0em; padding-right: 0">'),
    (r"\begin{cases} 1, & t = 1 \\ 0, & t > 1 \end{cases}", '<mo fence="true">{</mo><mtable'),  # stretches
    (r"\begin{cases} 1, & t = 1 \\ 0, & t > 1 \end{cases}",
     '<mtd columnalign="left" style="text-align: left; padding-left: 1em; padding-right: 0">'),
    (r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}", '<mo fence="true">(</mo><mtable'),
])
def test_tex_to_mathml(tex, expected):
    mathml = tex_to_mathml(tex, block=True)
    assert mathml.startswith(f'<math xmlns="{MATHML}"') and expected in mathml, mathml
    assert "displaystyle" not in re.sub(r"<(mstyle|mtable)[^>]*>", "", mathml)
    alttext = re.search(r'alttext="([^"]*)"', mathml)
    assert alttext and html.unescape(alttext.group(1)) == " ".join(tex.split()), mathml
    assert f'<annotation encoding="application/x-tex">{html.escape(tex, quote=False)}</annotation>' in mathml


def test_tex_katex_cannot_read_is_an_error_not_a_guess():
    with pytest.raises(FormulaError, match="Undefined control sequence"):
        tex_to_mathml(r"\frac{1}{\nosuchcommand}")
    for tex in (r"\dots", r"\big(", r"\texttt{x}"):  # what docutils' converter did not know
        assert "<math" in tex_to_mathml(tex)


def test_only_pages_with_mathml_get_the_property(tmp_path):
    (tmp_path / "a.xhtml").write_text(f'<p><math xmlns="{MATHML}"><mi>x</mi></math></p>', encoding="utf-8")
    (tmp_path / "b c.xhtml").write_text("<p>no maths</p>", encoding="utf-8")
    opf = tmp_path / "content.opf"
    opf.write_text('<item id="e1" href="a.xhtml" media-type="application/xhtml+xml" />\n'
                   '<item id="e2" href="b%20c.xhtml" media-type="application/xhtml+xml" />\n', encoding="utf-8")
    assert add_mathml_properties(opf, tmp_path) == 1
    assert opf.read_text(encoding="utf-8").splitlines() == [
        '<item id="e1" href="a.xhtml" media-type="application/xhtml+xml" properties="mathml" />',
        '<item id="e2" href="b%20c.xhtml" media-type="application/xhtml+xml" />']


def test_book_links_lead_from_any_page_to_each_sites_root():
    links = book_links(SITE_LANGUAGES, "en", "tensors/index", PROJECT)
    assert [link["href"] for link in links] == ["../../en/torch-notes-en.epub", "../../zh_CN/torch-notes-zh-CN.epub"]
    assert [link["current"] for link in links] == [True, False]
