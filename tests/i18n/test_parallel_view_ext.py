"""The parallel view's extension (docs/_ext/i18n/parallel_view.py) on a small fixture project.

tests/roots/test-parallel-view/ has one unit of every kind (heading, paragraph with a
role and an untitled {ref}, list items, table cells, an admonition, a definition list, an
API entry with field names and parameter descriptions), a doctest, a unit that reads the
same in both languages, a fuzzy entry, and a second page. It is built once per language
with the view on and once with it off (-D parallel_view=0); the browser side is in
tests/i18n/test_parallel_view.py.
"""

import pickle
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import ROOT
from tools.examples.doctest_report import parse
from tools.web.html_lang import chinese_outside_marked_elements
from i18n.parallel_view import parallel_counterpart

FIXTURE = ROOT / "tests" / "roots" / "test-parallel-view"
ZH, EN = "zh_CN", "en"
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck


def sphinx(builder: str, language: str, out: Path, doctrees: Path, *options: str) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", builder, "-q", "-n", "-d", str(doctrees),
                             "-D", f"language={language}", *options, str(FIXTURE), str(out)],
                            capture_output=True, text=True, timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stderr
    return result


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """{(language, "on" | "off"): project folder with html/ and doctrees/}."""
    found = {}
    for language in (ZH, EN):
        for mode in ("on", "off"):
            where = tmp_path_factory.mktemp(f"{language}-{mode}")
            options = ["-W"] + (["-D", "parallel_view=0"] if mode == "off" else [])
            result = sphinx("html", language, where / "html", where / "doctrees", *options)
            assert "WARNING" not in result.stderr, result.stderr
            found[language, mode] = where
    return found


def page(built, language: str, mode: str = "on", name: str = "index") -> BeautifulSoup:
    return BeautifulSoup((built[language, mode] / "html" / f"{name}.html").read_text(encoding="utf-8"),
                         "html.parser")


def counterparts(soup: BeautifulSoup) -> list:
    return soup.select(".parallel-counterpart")


def text(element) -> str:
    return re.sub(r"\s+", " ", element.get_text()).strip()


ENGLISH = ["Parallel reading", "The first paragraph introduces tensors and torch.cat; see Second section.",
           "First item", "Second item, with an external link", "Name", "Meaning", "Dimension",
           "Correction: the old claim", "The old notes say the default is 1.", "Returns x.", "Parameters",
           "The input. Default None.", "Returns", "x, unchanged.", "Second section", "Default",
           "The description in a definition list.", "The quotes “are here”; don’t change them.",
           "See the other page and The other page.", "Back to the second section.", "See also"]
CHINESE = ["对照阅读", "这是第一段，介绍张量和 torch.cat，详见 第二节。", "列表第一项", "列表第二项，含外部链接",
           "名称", "含义", "维度", "勘误：旧说法", "旧笔记说默认值是 1。", "返回 x。", "参数", "输入，默认 None。",
           "返回", "原样返回的 x。", "第二节", "默认", "定义列表的说明。", '引号"在这里"，不要改。', "见 另一页 与 另一页。", "回到第二节。", "另见"]


def test_the_chinese_build_shows_each_unit_s_english_counterpart_in_order(built):
    soup = page(built, ZH)
    found = counterparts(soup)
    # The untitled {ref} shows the English title of its target; smart quotes as on the English site;
    # the cell `dim` and the paragraph `torch.cat` (fuzzy entry) read the same and get none.
    assert [text(c) for c in found] == ENGLISH
    assert all(c.get("lang") == "en" and c.has_attr("hidden") and "no-search" in c["class"] for c in found)
    link = soup.select(".parallel-counterpart a[href='#pv-second']")
    assert [text(a) for a in link] == ["Second section", "the second section"], "links in a counterpart work"


def test_the_english_build_shows_the_chinese_source_of_each_unit_in_order(built):
    soup = page(built, EN)
    found = counterparts(soup)
    # Field names are Sphinx's words: the Chinese site's come from Sphinx's own Chinese catalog.
    assert [text(c) for c in found] == CHINESE
    assert all(c.get("lang") == "zh-CN" and c.has_attr("hidden") for c in found)
    html = (built[EN, "on"] / "html" / "index.html").read_text(encoding="utf-8")
    assert chinese_outside_marked_elements(html) == []


@pytest.mark.parametrize("language", [ZH, EN])
def test_counterparts_sit_right_after_their_unit_or_inside_a_term(built, language):
    soup = page(built, language)
    for found in counterparts(soup):
        if found.name == "span":
            assert found.parent.name == "dt" or "caption-text" in found.parent["class"], found
        else:
            before = found.find_previous_sibling()
            assert before is not None and (before.name in ("p", "h1", "h2") or "parallel-counterpart" in before["class"])
    # Code is never duplicated, and nothing in a counterpart has an id.
    assert len(soup.select("div.highlight")) == 1
    assert not [c for c in counterparts(soup) if c.select("pre, [id]")]


@pytest.mark.parametrize("language", [ZH, EN])
def test_links_in_a_counterpart_are_made_as_on_the_page(built, language):
    soup = page(built, language)
    for target in ("#pv-second", "other.html", "other.html#pv-other"):
        on_page = [a["class"] for a in soup.select(f"[role=main] a[href='{target}']") if not a.find_parent(class_="parallel-counterpart")]
        in_counterparts = [a["class"] for a in soup.select(f".parallel-counterpart a[href='{target}']")]
        assert on_page and in_counterparts and on_page[-1] == in_counterparts[-1] == ["reference", "internal"], target


@pytest.mark.parametrize("language", [ZH, EN])
def test_without_the_view_the_page_is_the_same(built, language):
    """Every byte of the page body outside the counterparts is what the build without the view writes."""
    def body(mode: str) -> str:
        soup = page(built, language, mode)
        for found in counterparts(soup):
            found.decompose()
        return str(soup.select_one("[role=main]"))
    assert body("on") == body("off")
    assert not counterparts(page(built, language, "off"))


@pytest.mark.parametrize("language", [ZH, EN])
def test_the_search_index_does_not_count_the_counterparts(built, language):
    on, off = ((built[language, mode] / "html" / "searchindex.js").read_text(encoding="utf-8") for mode in ("on", "off"))
    assert on == off
    assert ("qwertyuiopword" in on) == (language == EN)  # the word is only in other.md's English text


@pytest.mark.parametrize("language", [ZH, EN])
def test_the_doctest_count_does_not_change(built, language):
    counts = {}
    for mode in ("on", "off"):
        where = built[language, mode]
        options = ["-D", "parallel_view=0"] if mode == "off" else []
        sphinx("doctest", language, where / "doctest", where / "doctrees", *options)  # reuses the HTML doctrees
        counts[mode] = parse((where / "doctest" / "output.txt").read_text(encoding="utf-8"))[0]
    assert counts["on"] == counts["off"] == {"index": 1}


def test_other_builders_drop_the_counterparts_even_from_reused_doctrees(built):
    where = built[ZH, "on"]
    sphinx("epub", ZH, where / "epub", where / "doctrees")
    books = list((where / "epub").glob("*.xhtml"))
    assert books and not [b for b in books if "parallel-counterpart" in b.read_text(encoding="utf-8")]
    result = sphinx("text", ZH, where / "text", where / "doctrees")
    written = (where / "text" / "index.txt").read_text(encoding="utf-8")
    assert "对照阅读" in written and "Parallel reading" not in written, result.stderr


@pytest.mark.parametrize("language", [ZH, EN])
def test_counterparts_belong_to_their_page(built, language):
    """No node points at the scratch document a message was parsed in: it would be pickled with the page."""
    with open(built[language, "on"] / "doctrees" / "index.doctree", "rb") as f:
        doctree = pickle.load(f)
    assert list(doctree.findall(parallel_counterpart))
    strays = [n for n in doctree.findall() if getattr(n, "_document", None) not in (None, doctree)]
    assert not strays, strays[:5]


def test_a_changed_translation_rebuilds_the_chinese_page(built):
    with open(built[ZH, "on"] / "doctrees" / "environment.pickle", "rb") as f:
        env = pickle.load(f)
    catalog = (FIXTURE / "locale" / "en" / "LC_MESSAGES" / "index.po").resolve()
    assert str(catalog) in {str(Path(p)) for p in env.dependencies["index"]}
