"""The data the search page gets with the index: excerpts (search_excerpts.py) and term pages (search_synonyms.py).

tests/roots/test-search-excerpts/ is a tiny Chinese project: a home page with a
``{ref}``, a page with prose, a doctest, inline and display maths, a long paragraph and a section
with only code, and a page that the second build no longer has. Each test
builds a fresh copy of it with docs/_ext/ on the path. The browser tests
(tests/web/test_browser.py) check the excerpts on the built site.
"""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from search.search_excerpts import EXCERPT_WIDTH, PREFIX, QUOTED, clipped, page_messages, quoted, short_anchor, width
from search.search_synonyms import definition_labels
from search.tex_plain import tex_plain

FIXTURE = ROOT / "tests" / "roots" / "test-search-excerpts"
ENV = {**os.environ, "PYTHONPATH": str(ROOT / "docs" / "_ext")}
SPHINX_TIMEOUT = 300  # seconds; the fixture project builds in seconds; past this it is stuck


def build(root: Path) -> dict:
    out = root / "_build"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-W", "-q", "-d", str(root / "_doctrees"),
                             str(root), str(out)], capture_output=True, text=True, env=ENV,
                            timeout=SPHINX_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    text = (out / "_static" / "search-excerpts.js").read_text(encoding="utf-8")
    assert text.startswith(PREFIX)
    return json.loads(text[len(PREFIX):].rstrip().rstrip(";"))


def test_each_section_gets_the_start_of_its_prose_and_nothing_else(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    excerpts = build(project)
    assert sorted(excerpts) == ["gone", "index", "other"]
    assert excerpts["index"] == [["", "首页的第一段，提到 第二节。"]], "the {ref} is resolved to its title"
    (top, top_text), (anchor, second) = excerpts["other"]  # the section with only code has none
    assert top == "" and top_text.startswith("页首的段落：广播把形状不同的张量")
    assert "公式 aᵢⱼ + bⱼ 以纯文本进摘要" in top_text, "inline maths is plain text, not a gap"
    assert "a_{ij}" not in top_text and "code is not" not in top_text, "no TeX, no code"
    assert anchor == "-section", "the page's own prefix (other-) is left out"
    assert second.startswith("第二节的段落。") and second.endswith("…") and "plain code" not in second
    assert "Σ" not in second and "sum" not in second, "display maths stays out"
    assert width(second) <= EXCERPT_WIDTH + 2 and "还有第三句" not in second


def test_a_rebuild_keeps_the_pages_it_does_not_write_and_drops_removed_ones(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    first = build(project)
    (project / "gone.md").unlink()
    index = project / "index.md"
    text = index.read_text(encoding="utf-8")
    index.write_text(text.replace("gone\n", "").replace("第一段", "第一段（改过）"), encoding="utf-8")
    second = build(project)
    assert sorted(second) == ["index", "other"]
    assert second["other"] == first["other"], "a page this build did not write keeps its excerpts"
    assert second["index"][0][1].startswith("首页的第一段（改过）")


def test_an_anchor_loses_its_own_page_prefix_only():
    assert short_anchor("tensors/pointwise", "tensors-pointwise-sqrt") == "-sqrt"
    assert short_anchor("tensors/pointwise", "tensors-pointwise") == "tensors-pointwise"
    assert short_anchor("tensors/pointwise", "tensors-reductions-sum") == "tensors-reductions-sum"
    assert short_anchor("nn/flatten-lazy", "nn-flatten-lazy-flatten") == "-flatten"


def test_clipping_counts_a_chinese_character_as_two_columns_and_cuts_after_a_sentence():
    assert clipped("短句。") == "短句。"
    chinese = "一二三四五六七八九十。" * 30
    cut = clipped(chinese)
    assert cut.endswith("。…") and width(cut) <= EXCERPT_WIDTH + 2 and len(cut) < EXCERPT_WIDTH // 2 + 2
    english = "word " * 100
    assert clipped(english).endswith("word…") and len(clipped(english)) <= EXCERPT_WIDTH + 1


def test_the_page_of_a_glossary_term_is_the_first_ref_of_its_definition(tmp_path):
    glossary = tmp_path / "glossary.md"
    glossary.write_text("\n".join([
        "# 术语表", "", "```{glossary}",
        "学习率", "  每步的比例。详见 {ref}`lr-base`，另见 {ref}`other`。", "",
        "学习率调度器", "  修改学习率的对象。", "  详见 {ref}`调度器 <lr-scheduler>`。", "",
        "无链接", "  没有详见。", "```", "", "正文 {ref}`not-a-term`", ""]), encoding="utf-8")
    assert definition_labels(glossary) == {"学习率": "lr-base", "学习率调度器": "lr-scheduler"}


@pytest.mark.parametrize("tex, plain", [
    (r"\frac{\lambda}{2}\lVert\theta\rVert^2", "λ/2 ‖θ‖²"),
    (r"(*, C_{in}, H_{in}, W_{in})", "(*, Cᵢₙ, Hᵢₙ, Wᵢₙ)"),
    (r"L = \frac{1}{n}\sum_i (wx_i + b - y_i)^2", "L = 1/n Σᵢ (wxᵢ + b - yᵢ)²"),
    (r"x / \sqrt{1 + \epsilon}", "x / √(1 + ϵ)"),
    (r"\mathcal{N}(\text{mean}, \text{std}^2)", "N(mean, std²)"),
    (r"\mathbf{v}^\top J", "vᵀ J"),
    (r"(*, \text{normalized\_shape}[0], \ldots)", "(*, normalized_shape[0], …)"),
    (r"\lfloor (i + 0.5) \times L_{in} / L_{out} \rfloor", "⌊ (i + 0.5) × Lᵢₙ / Lₒᵤₜ ⌋"),
    (r"p_c > 1", "p_c > 1"),  # no subscript c in Unicode
    (r"10^{-45}", "10⁻⁴⁵"),
    (r"\bar g_t = \alpha \bar g_{t-1}", "g\u0304ₜ = α g\u0304ₜ₋₁"),  # a combining macron
    (r"S_{\text{dim}} \bmod k", "S_dim mod k"),
    (r"\unknown{x}", "unknownx"),  # an unknown command loses its backslash, nothing else
    (r"\frac{1}{", "1/"),  # unbalanced: still text
])
def test_a_formula_reads_as_plain_text(tex, plain):
    assert tex_plain(tex) == plain


def test_a_message_the_page_quotes_in_its_prose_is_marked():
    """search-messages.js: QUOTED before a message whose first QUOTED_WORDS words (after its class) the page's
    prose has in a row, numbers matching numbers; not before one it only prints, nor one whose words are
    scattered through the prose."""
    from docutils.core import publish_doctree

    page = publish_doctree(settings_overrides={"doctitle_xform": False}, source="\n".join([
        "Title", "=====", "",
        "Casting fails with ``Found dtype Long but expected Float``: the target must be float.", "",
        "Scattered: tensor, size, must, match.", "",
        "Section", "-------", "", "An example::", "",
        "    RuntimeError: Found dtype Long but expected Float",
        "    RuntimeError: The size of tensor a (4) must match the size of tensor b (5)",
        "    ValueError: expected 4 channels, got 3 channels", "",
        "The same with other sizes: ``expected 8 channels, got 2``.", ""]))
    assert page_messages(page) == [
        QUOTED + "RuntimeError: Found dtype Long but expected Float",
        "RuntimeError: The size of tensor a (4) must match the size of tensor b (5)",
        QUOTED + "ValueError: expected 4 channels, got 3 channels",
    ]
    assert quoted("UserWarning: a b c d e f", " x a b c d e y ") and not quoted("UserWarning: a b c d e f", " a b c d ")
