"""Each entry is parsed once (tools/lint/entry.py): one Markup of its msgid and one of its msgstr, handed to
every rule family in turn (the lint used to parse an entry's text four times)."""

import polib
from lint_entries import catalog

from tools.lint import lint_po
from tools.lint.po_markup import Markup


def test_every_family_reads_the_one_parse_of_each_entry(tmp_path, monkeypatch):
    parsed: list[str] = []
    original = Markup.__init__

    def counting(self, text):
        parsed.append(text)
        original(self, text)

    monkeypatch.setattr(Markup, "__init__", counting)
    pairs = [("张量的梯度是 2 个数，见 <https://zhuanlan.zhihu.com/p/1>。", "The gradient of a tensor is 2 numbers."),
             ("调用 `x.clone()` 与 {py:func}`torch.cat`。", "Call `x.clone()` and {py:func}`torch.cat`."),
             ("按下标取值。", "Take a value by index.")]
    po = catalog(tmp_path / "en" / "LC_MESSAGES" / "page.po", *(polib.POEntry(msgid=i, msgstr=s) for i, s in pairs))
    errors = lint_po.lint([po])  # every family, spelling and consistency included
    assert errors, "the entries break rules of several families, which all looked at them"
    assert sorted(parsed) == sorted(text for pair in pairs for text in pair), parsed
