"""Chinese search: jieba is required, and the Sphinx 9.0.4 stemmer bug stays fixed. What the search page
downloads: the index without what it never reads, excerpts without gaps."""

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import LANGUAGES, ROOT, html_dir
from search_excerpts import PREFIX as EXCERPTS_PREFIX
from search_index_trim import trimmed
from search_term_weight import marked
from sphinx.search import zh as sphinx_zh
from zh_search import FixedSearchChinese

ROOTS = ROOT / "tests" / "roots"
BAD_LINE = "window.Stemmer = ChineseStemmer;"
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck


def search_index(site) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(re.match(r"Search\.setIndex\((.*)\)$", text.strip(), re.S).group(1))


def search_terms(site) -> dict:
    return search_index(site)["terms"]


def test_language_data_defines_the_stemmer_it_uses(html_builds):
    script = (html_dir(LANGUAGES[0]) / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert BAD_LINE not in script, "sphinx-doc/sphinx#14229 is back: the search page will hang"
    assert "window.Stemmer = EnglishStemmer;" in script and "EnglishStemmer" in script.split("window.Stemmer")[0]


def test_upstream_bug_still_present_so_the_workaround_is_still_needed():
    # When a fixed Sphinx is pinned this fails: drop FixedSearchChinese then.
    upstream = sphinx_zh.SearchChinese
    assert upstream.language_name == "Chinese" and upstream.js_stemmer_rawcode == "english-stemmer.js"
    assert FixedSearchChinese.js_stemmer_rawcode == ""


def test_chinese_words_are_indexed(html_builds):
    terms = search_terms(html_dir(LANGUAGES[0]))
    assert "广播" in terms, "no Chinese word in the search index (is jieba working?)"


def test_chinese_build_fails_loudly_without_jieba(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOTS / "fake-jieba"))
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(ROOTS / "test-zh-search"),
                             str(tmp_path)], capture_output=True, text=True, env=env, timeout=SPHINX_TIMEOUT)
    assert result.returncode != 0
    assert "jieba cannot be imported" in result.stderr, result.stderr


def test_fixture_with_jieba_indexes_whole_terms(tmp_path):
    subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(ROOTS / "test-zh-search"),
                    str(tmp_path)], check=True, capture_output=True, timeout=SPHINX_TIMEOUT)
    assert BAD_LINE not in (tmp_path / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "梯度" in search_terms(tmp_path)


def test_the_learners_forms_join_the_search_groups_and_the_chinese_dictionary(tmp_path):
    """tools/terminology/search-synonyms.tsv: 求和 finds what sum finds; 求和 stays one word in the index."""
    from search_synonyms import merged, variant_groups

    table = tmp_path / "search-synonyms.tsv"
    table.write_text("# comment\n求和\tsum, torch.sum\n", encoding="utf-8")
    for name in ("zh.tsv", "en.tsv"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert merged(variant_groups(tmp_path)) == [["求和", "sum", "torch.sum"]]
    groups = merged(variant_groups())  # the project's table is read too
    assert any({"求和", "sum"} <= set(group) for group in groups), groups


def test_the_ranking_script_is_shipped_without_its_comment_lines(tmp_path):
    """The search page is near its 1 MB (test_browser): the built search-ranking.js has only its code lines."""
    from search_synonyms import without_comment_lines

    assert without_comment_lines("/* a\n * b */\nconst a = 1; // kept\n  // dropped\n  /* one */\nf(/* kept */ a);\n") \
        == "const a = 1; // kept\nf(/* kept */ a);\n"
    source = (ROOT / "docs" / "_static" / "search-ranking.js").read_text(encoding="utf-8")
    shipped = tmp_path / "search-ranking.js"
    shipped.write_text(without_comment_lines(source), encoding="utf-8")
    subprocess.run(["node", "--check", str(shipped)], check=True, capture_output=True, timeout=60)
    code = [line for line in source.splitlines(keepends=True) if not line.strip().startswith(("//", "/*", "*"))]
    assert shipped.read_text(encoding="utf-8") == "".join(code)
    assert len(shipped.read_text(encoding="utf-8")) < 0.8 * len(source)


def test_the_built_sites_ship_the_ranking_script_without_its_comment_lines(html_builds):
    from search_synonyms import without_comment_lines

    source = (ROOT / "docs" / "_static" / "search-ranking.js").read_text(encoding="utf-8")
    for language in LANGUAGES:
        assert (html_dir(language) / "_static" / "search-ranking.js").read_text(encoding="utf-8") \
            == without_comment_lines(source), language


def test_the_index_leaves_out_what_no_query_reaches():
    """search_index_trim: index entries (search-ranking.js never reads them) and number terms."""
    frozen = {"indexentries": {"torch.sum()": [[0, "id", 0]]}, "terms": {"255": 1, "0.0001": [1, 2], "1_000": 3,
              "conv1d": 1, "1d": 2, "张量": 0}, "titleterms": {"2": 0, "relu": 1}, "objects": {"torch": []}}
    assert trimmed(frozen) == {"indexentries": {}, "terms": {"conv1d": 1, "1d": 2, "张量": 0},
                               "titleterms": {"relu": 1}, "objects": {"torch": []}}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_built_index_has_no_index_entries_and_no_number_terms(html_builds, language):
    index = search_index(html_dir(language))
    assert index["indexentries"] == {}
    numbers = [t for key in ("terms", "titleterms") for t in index[key] if re.fullmatch(r"[\d._]*\d[\d._]*", t)]
    assert not numbers, numbers[:20]
    text = (html_dir(language) / "searchindex.js").read_text(encoding="utf-8")
    assert not re.search(r"\\u[0-9a-f]{4}", text), "escaped characters: six bytes where UTF-8 takes three"


# What a formula left out of an excerpt leaves behind (issue 28): a word or a Chinese character, a space and
# punctuation ("scaled to , resizing", "乘以 ；"), or two punctuation marks ("设 ，，。").
FORMULA_GAP = re.compile(r"[A-Za-z\u4e00-\u9fff] [,.;:，。；：、)）](?=\s|$|[\u4e00-\u9fff])|[，、：；] ?[，。、；：]")


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_excerpt_has_a_gap_where_a_formula_was(html_builds, language):
    text = (html_dir(language) / "_static" / "search-excerpts.js").read_text(encoding="utf-8")
    excerpts = json.loads(text[len(EXCERPTS_PREFIX):].rstrip().rstrip(";"))
    gaps = [f"{page}: ...{excerpt[max(0, m.start() - 30):m.end() + 20]}..."
            for page, sections in excerpts.items() for _, excerpt in sections
            for m in [FORMULA_GAP.search(excerpt)] if m]
    assert not gaps, f"{len(gaps)} excerpts with a gap:\n" + "\n".join(gaps[:20])


def test_the_pages_that_use_a_word_often_are_marked_and_come_first():
    """search_term_weight: ~n for a page that uses the word FREQUENT times or more, most uses first."""
    frozen = {"docnames": ["a", "b", "c"], "terms": {"x": [0, 2], "y": 1, "z": [0, 1, 2]}, "titleterms": {"x": 0}}
    uses = {"a": {"x": 3, "z": 4}, "b": {"y": 5}, "c": {"z": 9}}
    assert marked(frozen, uses) == {"docnames": ["a", "b", "c"], "terms": {"x": [~0, 2], "y": ~1, "z": [~2, ~0, 1]},
                                    "titleterms": {"x": 0}}


def test_an_incremental_build_reads_the_marked_index_back_as_sphinx_wrote_it():
    """IndexBuilder.load reads the previous searchindex.js of an incremental build: ~n is page n again, not the
    n-th page from the end (Python's negative index)."""
    from search_term_weight import loads  # setup() puts it in place of _JavaScriptIndex.loads
    from sphinx.search import js_index
    frozen = {"docnames": ["a", "b", "c"], "terms": {"x": [~0, 2], "y": ~1, "z": [~2, ~0, 1]}, "titleterms": {"x": 0}}
    assert loads(js_index, js_index.dumps(frozen))["terms"] == {"x": [0, 2], "y": 1, "z": [2, 0, 1]}
