"""The lint's drafts family (tools/lint/lint_drafts.py): fuzzy, '#|' left over, untranslated; a draft
language's unfinished entries counted, not listed."""

import polib
from lint_entries import catalog, entries_of

from tools.lint import lint_drafts


def test_fuzzy_previous_and_untranslated_entries(tmp_path):
    fuzzy = polib.POEntry(msgid="旧", msgstr="Old", flags=["fuzzy"], previous_msgid="更旧")
    left = polib.POEntry(msgid="改过", msgstr="Changed", previous_msgid="改过之前")
    empty = polib.POEntry(msgid="未译", msgstr="")
    done = polib.POEntry(msgid="已译", msgstr="Done")
    entries = entries_of(catalog(tmp_path / "en" / "LC_MESSAGES" / "page.po", fuzzy, left, empty, done))
    found = {e.msgid: [(p.rule, p.field) for p in lint_drafts.problems(e)] for e in entries}
    assert found == {"旧": [("fuzzy", "msgstr")], "改过": [("previous", "previous")],
                     "未译": [("untranslated", "msgstr")], "已译": []}
    assert [lint_drafts.unfinished(e) for e in entries] == [True, False, True, False]


def test_a_draft_languages_unfinished_entries_are_counted_not_listed(monkeypatch):
    monkeypatch.setattr(lint_drafts, "draft_languages", lambda: {"ja"})
    errors = ["l/ja/LC_MESSAGES/a.po:3: [untranslated] '一': no translation yet",
              "l/ja/LC_MESSAGES/a.po:7: [fuzzy] '二': ...",
              "l/ja/LC_MESSAGES/a.po:9: [code] '三': ...",
              "l/en/LC_MESSAGES/a.po:3: [untranslated] '一': no translation yet"]
    kept, pending = lint_drafts.counted_for_drafts(errors, {"ja", "en"})
    assert kept == errors[2:], "a draft's other problems and a published language's unfinished entries stay"
    assert pending == ["ja is a draft: 1 entries not translated yet, 1 fuzzy (make todo L=ja)"]
