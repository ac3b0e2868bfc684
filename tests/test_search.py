"""Chinese search: jieba is required, and the Sphinx 9.0.4 stemmer bug stays fixed."""

import json
import os
import re
import subprocess
import sys

from conftest import LANGUAGES, ROOT, html_dir
from sphinx.search import zh as sphinx_zh
from zh_search import FixedSearchChinese

ROOTS = ROOT / "tests" / "roots"
BAD_LINE = "window.Stemmer = ChineseStemmer;"
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck


def search_terms(site) -> dict:
    text = (site / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(re.match(r"Search\.setIndex\((.*)\)$", text.strip(), re.S).group(1))["terms"]


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
