"""Reader-facing features checked on the built HTML and in the extensions' helpers:
glossary, jieba dictionary, API page, version stamp, language alternates, UI strings, field punctuation,
long output lines."""

import json
import platform
import re
from importlib import metadata

from pathlib import Path

import furo
import polib
import pytest
from reader.api_index import group_objects, module_of
from reader.api_links import official_url
from conftest import BUILDDIR, LANGUAGES, ROOT, html_dir
from reader.glossary_terms import jieba_dictionary
from tools.terminology import read_pairs, read_terms
from docutils import nodes
from reader.field_typography import punctuation, use_separator
from reader.language_switcher import HEADER_RIGHT, HEADER_SWITCHER, alternates, linked, with_header_switcher
from reader.output_blocks import LONG_OUTPUT, with_long_lines_wrapped
from tools.project import site_languages
from i18n import ui_strings
from i18n.ui_strings import translate_navigation_labels, wrap_hard_coded

GLOSSARY = ROOT / "docs" / "glossary.md"
GLOSSARY_PO = ROOT / "locale" / "en" / "LC_MESSAGES" / "glossary.po"
REQUIRED_PAIRS = {
    "张量": "tensor", "广播": "broadcasting", "视图": "view", "步幅": "stride", "步长": "step size",
    "存储": "storage", "连续": "contiguous", "形状": "shape", "维度": "dimension", "数据类型": "dtype", "设备": "device",
    "原地操作": "in-place operation", "自动求导": "autograd", "梯度": "gradient", "计算图": "computational graph",
    "叶子张量": "leaf tensor", "反向传播": "backpropagation", "梯度累加": "gradient accumulation", "冻结": "freeze",
    "微调": "fine-tuning", "模块": "module", "层": "layer", "参数": "parameter", "缓冲区": "buffer", "钩子": "hook",
    "前向传播": "forward pass", "训练模式": "training mode", "评估模式": "evaluation mode", "卷积": "convolution",
    "池化": "pooling", "批归一化": "batch normalization", "激活函数": "activation function",
    "损失函数": "loss function", "权重初始化": "weight initialization", "正则化": "regularization",
    "权重衰减": "weight decay", "优化器": "optimizer", "学习率": "learning rate", "小批量": "mini-batch",
    "批量大小": "batch size",
}


def page(language: str, name: str) -> str:
    return (html_dir(language) / f"{name}.html").read_text(encoding="utf-8")


# -- glossary --------------------------------------------------------------------
def test_read_terms_takes_only_term_lines_of_glossary_blocks(tmp_path):
    md = tmp_path / "g.md"
    md.write_text("# 标题\n\n正文\n\n```{glossary}\n:sorted:\n张量\n  定义。\n\n梯度\n  定义。\n```\n\n之后\n",
                  encoding="utf-8")
    assert read_terms(md) == ["张量", "梯度"]
    assert jieba_dictionary(["自动求导", "two words"]) == "自动求导\n"


def test_glossary_holds_every_required_pair_translated():
    assert read_pairs(GLOSSARY, GLOSSARY_PO) == {**read_pairs(GLOSSARY, GLOSSARY_PO), **REQUIRED_PAIRS}
    assert set(read_terms(GLOSSARY)) == set(read_pairs(GLOSSARY, GLOSSARY_PO)), "a term line has no English term"
    catalog = polib.pofile(str(GLOSSARY_PO))
    assert not catalog.untranslated_entries() and not catalog.fuzzy_entries()


def test_every_glossary_entry_links_to_the_entry_that_covers_it():
    text = GLOSSARY.read_text(encoding="utf-8")
    block = text.split("```{glossary}", 1)[1].split("```", 1)[0]
    definitions = re.split(r"\n\n", block.strip())
    assert len(definitions) == len(read_terms(GLOSSARY))
    without_link = [d.splitlines()[0] for d in definitions if "{ref}`" not in d]
    assert not without_link, f"glossary entries without a link: {without_link}"


@pytest.mark.parametrize("language, shown, counterpart, lang", [
    ("zh_CN", "自动求导", "autograd", "en"), ("en", "autograd", "自动求导", "zh-CN")])
def test_glossary_page_shows_both_languages(html_builds, language, shown, counterpart, lang):
    html = page(language, "glossary")
    # (a second, numbered anchor may stand between the <dt> and the term: see glossary_terms.StableTermIds)
    assert re.search(rf'<dt id="[^"]+">(<span id="[^"]+"></span>)?{shown}<span class="glossary-counterpart" '
                     rf'lang="{lang}">{counterpart}</span>',
                     html.replace("\n", "").replace(" <span", "<span")), "term and counterpart not side by side"
    assert html.count('class="glossary-counterpart"') == len(read_terms(GLOSSARY))


@pytest.mark.parametrize("language", LANGUAGES)
def test_glossary_anchors_are_named_after_the_english_term(html_builds, language):
    glossary = (html_dir(language) / "glossary.html").read_text(encoding="utf-8")
    assert '<dt id="term-leaf-tensor"' in glossary and '<dt id="term-tensor"' in glossary
    page = (html_dir(language) / "autograd" / "overview.html").read_text(encoding="utf-8")
    links = re.findall(r'glossary\.html#(term-[^"]+)"', page)
    assert links and not [link for link in links if re.fullmatch(r"term-\d+", link)], links


def test_glossary_terms_are_whole_words_in_the_chinese_index(html_builds):
    text = (html_dir("zh_CN") / "searchindex.js").read_text(encoding="utf-8")
    terms = json.loads(re.match(r"Search\.setIndex\((.*)\)$", text.strip(), re.S).group(1))["terms"]
    for term in ("自动求导", "学习率", "叶子张量", "梯度累加"):
        assert term in terms, f"{term} is not indexed whole (is the glossary dictionary loaded?)"


def test_chinese_query_splitter_is_shipped(html_builds):
    script = (html_dir("zh_CN") / "_static" / "language_data.js").read_text(encoding="utf-8")
    assert "var splitQuery = (query) =>" in script and "Script=Han" in script


# -- API page --------------------------------------------------------------------
@pytest.mark.parametrize("name, module", [
    ("torch.cat", "torch"), ("torch.Tensor.view", "torch"), ("torch.nn.Module.train", "torch.nn"),
    ("torch.nn.functional.relu", "torch.nn.functional"), ("torch.nn.init.zeros_", "torch.nn.init"),
    ("len", "builtins"), ("pickle.dumps", "pickle")])
def test_module_of(name, module):
    assert module_of(name) == module


def test_group_objects_sorts_and_skips_aliases():
    class Entry:
        def __init__(self, objtype, aliased=False):
            self.objtype, self.aliased = objtype, aliased
    grouped = group_objects({"torch.nn.Linear": Entry("class"), "torch.cat": Entry("function"),
                             "torch.Tensor.add": Entry("method"), "torch.alias": Entry("function", True),
                             "torch": Entry("module")})
    assert {m: [n for n, _ in rows] for m, rows in grouped.items()} == {
        "torch": ["torch.cat", "torch.Tensor.add"], "torch.nn": ["torch.nn.Linear"]}


SIGNATURE = re.compile(r'<dt class="sig sig-object py" id="([^"]+)">(.*?)</dt>', re.S)
NAME_PART = re.compile(r'<span class="sig-(?:pre)?name desc(?:class)?name"><span class="pre">([^<]+)</span>')


def documented_objects(language: str) -> dict[str, str]:
    """{full name: anchor} of every indexed py object on the site, the name read from its signature.

    The anchor is usually the name, but an object whose name is already an id on its page (the
    builtin ``super`` under a section titled "... super()") gets Sphinx's fallback id ``id0``."""
    found = {}
    for html in html_dir(language).rglob("*.html"):
        for anchor, signature in SIGNATURE.findall(html.read_text(encoding="utf-8")):
            found["".join(NAME_PART.findall(signature.replace("<wbr>", "")))] = anchor  # page_contents' breaks
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_api_page_and_general_index_list_every_documented_object(html_builds, language):
    objects = documented_objects(language)
    assert len(objects) > 10
    api, genindex = page(language, "api"), page(language, "genindex")
    for name in sorted(objects):
        assert f'<span class="pre">{name}</span>' in api, f"{name} missing from the API page"
        assert f"#{objects[name]}" in genindex, f"{name} missing from the general index"
        assert f'href="{official_url(name)}"' in api, f"{name}: no official link on the API page"


# -- version stamp, alternates, UI strings ----------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_names_the_versions_of_the_build_environment(html_builds, language):
    stamp = f"torch {metadata.version('torch')}"
    for name in ["index", "tensors/broadcasting", "glossary"]:
        html = page(language, name)
        match = re.search(r'<p class="verified-versions">([^<]+)</p>', html)
        assert match and stamp in match.group(1) and platform.python_version() in match.group(1), name


def test_a_draft_language_is_linked_only_from_its_own_pages():
    from books.epub_downloads import book_links
    languages = {"zh_CN": {"hreflang": "zh-CN", "label": "中文"}, "en": {"hreflang": "en", "label": "English"},
                 "ja": {"hreflang": "ja", "label": "日本語", "draft": True}}
    for published in ("zh_CN", "en"):
        assert [a["code"] for a in alternates(languages, published, "index", ".html", "index")] == ["zh_CN", "en"]
        assert [b["code"] for b in book_links(languages, published, "index", "p")] == sorted(
            ["zh_CN", "en"], key=lambda code: code != published)
    assert [a["code"] for a in alternates(languages, "ja", "index", ".html", "index")] == ["zh_CN", "en", "ja"]
    assert [b["code"] for b in book_links(languages, "ja", "index", "p")] == ["ja", "zh_CN", "en"]


def test_alternates_are_relative_to_the_page():
    languages = {"zh_CN": {"hreflang": "zh-CN", "label": "中文"}, "en": {"hreflang": "en", "label": "English"}}
    links = alternates(languages, "en", "tensors/broadcasting", ".html", "index")
    assert [(a["hreflang"], a["href"], a["home"], a["current"]) for a in links] == [
        ("zh-CN", "../../zh_CN/tensors/broadcasting.html", "../../zh_CN/index.html", False),
        ("en", "../../en/tensors/broadcasting.html", "../../en/index.html", True)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_declares_its_language_and_alternates(html_builds, language):
    site = html_dir(language)
    for html_file in [site / "index.html", site / "tensors" / "broadcasting.html", site / "api.html"]:
        html = html_file.read_text(encoding="utf-8")
        assert f'<html class="no-js" lang="{language.replace("_", "-")}"' in html
        links = re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', html)
        languages = site_languages()
        expected = {languages[code]["hreflang"] for code in linked(languages, language)} | {"x-default"}
        assert {hreflang for hreflang, _ in links} == expected
        for hreflang, href in links:  # absolute, from site_url: the same file in the built site
            built = BUILDDIR / "html" / href.removeprefix("http://127.0.0.1:8000/")
            assert href.startswith("http://127.0.0.1:8000/") and built.is_file(), f"{html_file}: {href}"


def test_hard_coded_theme_labels_become_translatable(monkeypatch):
    assert wrap_hard_coded('<button aria-label="Toggle Light / Dark / Auto color theme">') == \
        '<button aria-label="{{ _("Toggle Light / Dark / Auto color theme") }}">'
    monkeypatch.setattr(ui_strings, "_", {"Toggle navigation of %(title)s": "展开“%(title)s”"}.get)
    assert translate_navigation_labels('<input aria-label="Toggle navigation of 张量">') == \
        '<input aria-label="展开“张量”">'


@pytest.mark.parametrize("language, labels", [
    ("zh_CN", ['aria-label="切换浅色 / 深色 / 自动配色"', 'placeholder="搜索"', "回到顶部", "跳转到正文",
               'aria-label="显示或隐藏导航侧栏"', "展开或折叠“张量”的导航"]),
    ("en", ['aria-label="Toggle Light / Dark / Auto color theme"', 'placeholder="Search"', "Back to top",
            "Skip to content", "Toggle navigation of Tensors"]),
])
def test_ui_strings_are_in_the_page_language(html_builds, language, labels):
    html = page(language, "tensors/broadcasting")
    missing = [label for label in labels if label not in html]
    assert not missing, f"{language}: UI labels missing: {missing}"


def test_output_blocks_are_marked_not_to_copy(html_builds):
    html = page("zh_CN", "index")
    assert re.search(r'<div class="no-copybutton highlight-none notranslate">', html), "testoutput not marked"


# -- issue 29: the phone header, field punctuation, long output lines -----------------------------
FURO_PAGE = Path(furo.__file__).parent / "theme" / "furo" / "page.html"


def test_the_language_switcher_goes_into_furo_s_phone_header():
    """furo's page.html has no block there: the preprocessor needs its header-right group (a new furo may move it)."""
    source = FURO_PAGE.read_text(encoding="utf-8")
    assert source.count(HEADER_RIGHT) == 1, f"{FURO_PAGE}: no phone header group to put the switcher in"
    changed = with_header_switcher(source)
    assert changed.count(HEADER_SWITCHER) == 1 and changed.index(HEADER_SWITCHER) > changed.index('class="mobile-header"')
    assert with_header_switcher("<p>another template</p>") == "<p>another template</p>"


class FakeApp:
    def __init__(self, language):
        self.config = type("Config", (), {"language": language})()


def fields_doctree() -> nodes.document:
    from sphinx import addnodes
    paragraph = nodes.paragraph("", "", addnodes.literal_strong("", "lr"), nodes.Text(" -- "), nodes.Text("学习率"))
    body = nodes.field_body("", paragraph)
    document = nodes.document(None, None)
    document += addnodes.desc_content("", nodes.field_list("", nodes.field("", nodes.field_name("", "参数"), body)))
    return document


@pytest.mark.parametrize("language, dash", [("zh_CN", "——"), ("en", " -- "), ("ja", " -- ")])
def test_field_separators_take_the_language_s_dash(language, dash):
    """Chinese gets its dash and colon; a language SmartyPants educates (English) or one not listed keeps Sphinx's."""
    document = fields_doctree()
    use_separator(FakeApp(language), document, "page")
    assert document.astext().endswith(f"lr{dash}学习率"), document.astext()
    assert punctuation(language) == ({"zh_CN": ("：", "——")}.get(language))


def test_long_output_lines_wrap_and_code_and_tensor_rows_do_not():
    long_message = "x" * (LONG_OUTPUT + 1)
    html = ('<div class="highlight-pycon notranslate"><div class="highlight"><pre tabindex="0">'
            '<span class="gp">&gt;&gt;&gt; </span><span class="n">' + "y" * 90 + '</span>\n'
            '<span class="go">tensor([1., 2.])</span>\n'
            f'<span class="go">{long_message}</span>\n'
            '<span class="gt">Traceback (most recent call last):</span>\n'
            f'<span class="gr">ValueError</span>: <span class="n">{long_message}</span>\n'
            f'<span class="x"> * {long_message}</span>\n'
            '<span class="gp">&gt;&gt;&gt; </span><span class="n">' + "v" * 90 + '</span>\n</pre></div></div>'
            '<div class="no-copybutton highlight-none notranslate"><div class="highlight"><pre tabindex="0">'
            f'{"z" * (LONG_OUTPUT + 1)}\n&lt;{"w" * (LONG_OUTPUT - 2)}&gt;\n</pre></div></div>')
    wrapped = with_long_lines_wrapped(html)
    assert wrapped.count('<span class="long-output">') == 4, wrapped
    assert f'<span class="long-output"><span class="go">{long_message}</span></span>' in wrapped
    assert f'<span class="long-output">{"z" * (LONG_OUTPUT + 1)}</span>' in wrapped
    assert f'<span class="long-output"><span class="x"> * {long_message}</span></span>' in wrapped  # the message goes on
    assert '<span class="long-output"><span class="gp">' not in wrapped  # a code line scrolls, after a traceback too
