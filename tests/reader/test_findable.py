"""What search engines read (docs/_ext/reader/findable.py): descriptions, canonical URLs, hreflang, sitemaps."""

import re
import xml.etree.ElementTree as ElementTree

import pytest
from bs4 import BeautifulSoup
from docutils.core import publish_doctree

from conftest import LANGUAGES, check_translated_content, html_dir
from reader.findable import MAX_CHARS, first_paragraph, shorten
from tools.project import published, site_languages

SITE = "http://127.0.0.1:8000/"  # site_url's default: make serve's address
CJK = re.compile(r"[\u4e00-\u9fff]")
LINKED = published(site_languages())


def test_descriptions_are_cut_after_a_sentence_or_a_word():
    assert shorten("Short enough.") == "Short enough."
    long = "First sentence is here and long enough to keep. " + "word " * 60
    assert shorten(long) == "First sentence is here and long enough to keep."
    cut = shorten("word " * 60)
    assert cut.endswith("…") and len(cut) <= MAX_CHARS and not cut.endswith(" …")
    assert shorten("汉" * 200).endswith("…") and len(shorten("汉" * 200)) == MAX_CHARS


def test_a_dotted_api_name_is_not_the_end_of_a_sentence():
    text = ("The loss of a classifier computed with torch.nn.CrossEntropyLoss from raw scores, "
            "with a long explanation that goes on and on past the limit " + "word " * 40)
    cut = shorten(text)
    assert "torch.nn.CrossEntropyLoss" in cut and cut.endswith("…"), cut
    assert shorten("本页介绍 torch.nn.MSELoss 的用法。" * 12).endswith("。")


def test_the_first_real_paragraph_skips_admonitions_and_short_lines():
    doctree = publish_doctree(".. note::\n\n   A note that is long enough to be taken by mistake here.\n\n"
                              "Short.\n\nThe paragraph that really describes the page, at some length.\n")
    assert first_paragraph(doctree) == "The paragraph that really describes the page, at some length."


def head(page) -> str:
    """The page up to the end of its <head>: everything these checks read (a whole page takes ten times longer to parse)."""
    text = page.read_text(encoding="utf-8")
    return text[:text.index("</head>") + len("</head>")]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_has_a_description_canonical_and_absolute_alternates(html_builds, language):
    problems, untranslated = [], []
    for page in sorted(html_dir(language).rglob("*.html")):
        name = page.relative_to(html_dir(language)).as_posix()
        if name.startswith(("_static/", "_images/", "_sources/")):
            continue
        soup = BeautifulSoup(head(page), "html.parser")
        description = soup.find("meta", attrs={"name": "description"})
        if description is None or len(description["content"]) < 10:
            problems.append(f"{name}: no description")
        elif not language.startswith(("zh", "ja", "ko")) and CJK.search(description["content"]):
            untranslated.append(f"{name}: the description is not in {language}: {description['content'][:60]}")
        canonical = soup.find("link", rel="canonical")
        if canonical is None or canonical["href"] != f"{SITE}{language}/{name}":
            problems.append(f"{name}: canonical {canonical and canonical['href']}")
        alternates = {link["hreflang"]: link["href"] for link in soup.find_all("link", rel="alternate")}
        expected = {site_languages()[code]["hreflang"]: f"{SITE}{code}/{name}" for code in LINKED}
        expected["x-default"] = f"{SITE}index.html"
        if language not in LINKED:  # a draft links to itself as well
            expected[site_languages()[language]["hreflang"]] = f"{SITE}{language}/{name}"
        if alternates != expected:
            problems.append(f"{name}: alternates {alternates}")
    assert not problems, "\n".join(problems[:20])
    check_translated_content(language, untranslated, "descriptions still in Chinese")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sitemap_lists_every_page_with_its_alternates(html_builds, language):
    tree = ElementTree.parse(html_dir(language) / "sitemap.xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}
    urls = tree.getroot().findall("s:url", ns)
    locs = {url.find("s:loc", ns).text for url in urls}
    pages = {f"{SITE}{language}/{p.relative_to(html_dir(language)).as_posix()}"
             for p in html_dir(language).rglob("*.html")
             if not p.name in ("search.html", "genindex.html") and not p.relative_to(html_dir(language)).as_posix()
             .startswith(("_static/", "_images/"))}
    assert locs == pages
    for url in urls:
        hreflangs = sorted(link.get("hreflang") for link in url.findall("x:link", ns))
        assert hreflangs == sorted({site_languages()[c]["hreflang"] for c in LINKED} |
                                   {site_languages()[language]["hreflang"]}), url.find("s:loc", ns).text
