"""The lint's links family (tools/lint/lint_links.py): the source's link targets, no new ones, and a link to
an article in Chinese said so in English."""

from lint_entries import entry, rules

from tools.lint import lint_links

ARTICLE = "原文：<https://zhuanlan.zhihu.com/p/123>"


def test_a_link_target_lost_or_added_and_a_url_added():
    found = lint_links.problems(entry("见[上一节](#where)。", "See [the section](#other) and https://example.org."))
    assert [(p.rule, p.message) for p in found] == [
        ("link", "link target '#where' is missing or altered"),
        ("link", "adds link target '#other'"),
        ("url", "adds URL 'https://example.org'")]


def test_an_english_link_to_an_article_in_chinese_says_so():
    assert rules(lint_links.problems(entry(ARTICLE, "The article: <https://zhuanlan.zhihu.com/p/123>"))) == ["url"]
    assert lint_links.problems(entry(ARTICLE, "The article (in Chinese): <https://zhuanlan.zhihu.com/p/123>")) == []


def test_only_english_is_told_that_an_article_is_in_chinese():
    assert lint_links.problems(entry(ARTICLE, "記事：<https://zhuanlan.zhihu.com/p/123>", language="ja")) == []
