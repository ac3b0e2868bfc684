"""The lint's consistency family (tools/lint/lint_consistency.py): one msgid, one translation."""

import polib
from lint_entries import catalog, entries_of

from tools.lint import lint_consistency


def test_the_odd_translation_is_named_once_with_the_usual_one(tmp_path):
    entries = []
    for name, msgstr in [("a", "Pitfalls"), ("b", "Pitfalls"), ("c", "Common pitfalls")]:
        entries += entries_of(catalog(tmp_path / f"{name}.po", polib.POEntry(msgid="常见陷阱", msgstr=msgstr)))
    errors = lint_consistency.problems(entries)
    assert len(errors) == 1 and errors[0].startswith(f"{tmp_path / 'c.po'}:"), errors
    assert "translated 'Common pitfalls' here, but 'Pitfalls' in 2 other place(s)" in errors[0]


def test_the_glossary_and_an_excepted_entry_are_left_alone(tmp_path):
    entries = entries_of(catalog(tmp_path / "a.po", polib.POEntry(msgid="梯度", msgstr="gradient")))
    entries += entries_of(catalog(tmp_path / "glossary.po", polib.POEntry(msgid="梯度", msgstr="gradients")))
    entries += entries_of(catalog(tmp_path / "b.po", polib.POEntry(msgid="梯度", msgstr="grad",
                                                                   tcomment="lint-ok: consistency")))
    assert lint_consistency.problems(entries) == []
