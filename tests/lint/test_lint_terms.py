"""The lint's terms and variants family (tools/lint/lint_terms.py): one concept, one term, in each language."""

from pathlib import Path

from lint_entries import entry

from tools.lint import lint_terms

PAIRS = {"张量": ["tensor"], "梯度": ["gradient"], "参数": ["parameter", "argument"]}
VARIANTS = {"zh": {"下标": "索引"}, "en": {"element-wise": "elementwise"}, "en-allowed": []}


def messages(msgid: str, msgstr: str, po: str = "page.po") -> list[str]:
    return [p.message for p in lint_terms.problems(entry(msgid, msgstr, po=Path(po)), PAIRS, VARIANTS)]


def test_each_sentence_that_uses_a_term_has_its_english_term():
    assert messages("张量的梯度。", "The gradient of a tensor.") == []
    found = messages("张量的梯度。张量的形状。", "The gradient of a tensor. Its shape.")
    assert len(found) == 1 and "uses glossary term '张量' in 2 sentences but its English term 'tensor' only 1" \
        in found[0], found


def test_a_homonyms_accepted_form_is_its_english_term_too():
    assert messages("传入参数。", "Pass the argument.") == []


def test_rejected_variants_in_the_source_and_in_the_translation():
    assert messages("按下标取元素。", "Take the element-wise sum.") == [
        "the source writes '下标'; the project's form is '索引' (fix the page in docs/)",
        "writes 'element-wise'; the project's form is 'elementwise'"]


def test_a_glossary_term_whose_also_form_is_a_rejected_variant():
    pairs = dict(PAIRS, 参数=["parameter", "element-wise"])
    found = lint_terms.problems(entry("参数", "parameter", po=Path("glossary.po")), pairs, VARIANTS)
    assert [(p.field, p.detail) for p in found] == [("comment", "element-wise")], found


def test_the_pending_list_is_read_with_its_line_numbers(tmp_path):
    (tmp_path / lint_terms.PENDING).write_text("# comment\nen tensors/where\n\nja optim/adam  # soon\n",
                                                encoding="utf-8")
    assert lint_terms.pending_pages(tmp_path) == {("en", "tensors/where"): 2, ("ja", "optim/adam"): 4}
