"""The lint's markup family (tools/lint/lint_markup.py): a translation keeps the source's markup."""

from lint_entries import entry, rules

from tools.lint import lint_markup


def test_a_kept_markup_passes_whatever_the_order():
    assert lint_markup.problems(entry("使用 `torch.cat` 拼接 {py:func}`torch.stack` 的结果（%(n)d 个）。",
                                      "Concatenate the %(n)d results of {py:func}`torch.stack` with `torch.cat`.")) == []


def test_a_lost_code_span_is_named_at_the_source_and_an_added_one_at_the_translation():
    found = lint_markup.problems(entry("调用 `x.clone()`。", "Call `x.copy()`."))
    assert [(p.rule, p.field, p.message) for p in found] == [
        ("code", "msgid", "code span 'x.clone()' is missing or altered"),
        ("code", "msgstr", "adds code span 'x.copy()' that the source does not have")]
    assert found[0].offset == "调用 `x.clone()`。".index("x.clone()")


def test_a_code_span_with_chinese_in_it_is_prose_and_translated():
    assert lint_markup.problems(entry("写成 `形状` 即可。", "Write `shape`.")) == []


def test_roles_labels_maths_placeholders_and_html():
    found = lint_markup.problems(entry("(sec)=\n见 {ref}`标题 <label>`，$x^2$，%s。",
                                       "See {ref}`the title <other>`, x^2, %d <b>here</b>."))
    assert sorted(set(rules(found))) == ["html", "label", "math", "placeholder", "role"]


def test_a_lone_backtick_comes_first_without_the_spans_it_makes_look_missing():
    found = lint_markup.problems(entry("用 `a` 和 `b` 与 {py:func}`torch.c`，共 2 个。",
                                       "With a` and `b` and {py:func}`torch.c`, 3 of them."))
    assert rules(found) == ["markup"], found
    assert found[0].offset == "With a` and".index("`"), "the lone backtick, not the last one the parser saw"
