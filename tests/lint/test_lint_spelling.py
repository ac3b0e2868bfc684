"""The lint's spelling family (tools/lint/lint_spelling.py): hunspell's en_US and the project's word lists."""

import polib
from lint_entries import catalog, entries_of

from tools.lint import lint_spelling


def test_identifiers_are_not_words_to_check():
    assert lint_spelling.words("ReLU and BatchNorm use x_1 and the tensor's shape.") == ["and", "use", "and", "the",
                                                                                      "tensor", "shape"]


def test_unknown_words_are_named_on_their_line_unless_excepted_or_inside_broken_markup(tmp_path):
    po = catalog(tmp_path / "page.po",
                 polib.POEntry(msgid="一", msgstr="Teh first line.\nThe behaviour of `normalise`."),
                 polib.POEntry(msgid="二", msgstr="Teh second.", tcomment="lint-ok: spelling"),
                 polib.POEntry(msgid="三", msgstr="Teh `broken code."))
    errors = lint_spelling.problems(entries_of(po))
    msgstr = next(n for n, line in enumerate(po.read_text(encoding="utf-8").splitlines(), 1)
                  if line.startswith("msgstr") and "first" in po.read_text(encoding="utf-8").splitlines()[n])
    assert errors == [f"{po}:{msgstr + 1}: [spelling] '一': not in en_US or tools/spelling/*.txt: Teh",
                      f"{po}:{msgstr + 2}: [spelling] '一': not in en_US or tools/spelling/*.txt: behaviour"], errors
