"""The lint's numbers family (tools/lint/lint_numbers.py): a translation keeps the source's numbers."""

from lint_entries import entry

from tools.lint import lint_numbers


def messages(msgid: str, msgstr: str) -> list[str]:
    return [p.message for p in lint_numbers.problems(entry(msgid, msgstr))]


def test_digits_are_compared_as_multisets():
    assert messages("全部 4 个样本，每批 4 个。", "All 4 samples, 5 per batch.") == [
        "number '4' is missing or altered", "adds number '5' that the source does not have"]


def test_a_small_number_may_be_spelled_out_and_a_chinese_numeral_may_become_digits():
    assert messages("在 0 处取值。", "It takes a value at zero.") == []
    assert messages("两个进程。", "2 processes.") == []


def test_a_number_spelled_out_that_replaces_the_sources_is_a_changed_number():
    assert messages("两个进程。", "three ranks.") == [
        "writes 'three' (3), a number the source does not have, and leaves out the source's 2"]


def test_one_of_and_no_one_are_not_numbers():
    assert messages("其中一个进程。", "One of the processes; no one else.") == []
