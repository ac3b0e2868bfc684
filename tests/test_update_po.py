"""make update-po keeps translations: changed entries turn fuzzy with their previous source."""

import shutil
import subprocess

import polib
from conftest import ROOT


def test_changed_paragraph_becomes_fuzzy_with_previous_source(tmp_path):
    project = tmp_path / "project"
    shutil.copytree(ROOT, project, ignore=shutil.ignore_patterns(".venv", "_build", ".git", "*.mo", "__pycache__"))
    (project / ".venv").symlink_to(ROOT / ".venv")
    page = project / "docs" / "tensors" / "broadcasting.md"
    old = "两个张量可以广播，当且仅当同时满足下面两条："
    new = "两个张量能够广播，当且仅当同时满足下面两条："
    page.write_text(page.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    po_path = project / "locale" / "en" / "LC_MESSAGES" / "tensors" / "broadcasting.po"
    before = polib.pofile(str(po_path))
    translated_before = before.find(old).msgstr
    untouched = {e.msgid: e.msgstr for e in before if e.msgid != old}

    result = subprocess.run(["make", "--no-print-directory", "update-po", "SPHINXOPTS=-q"],
                            cwd=project, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr

    after = polib.pofile(str(po_path))
    changed = after.find(new)
    assert changed is not None and changed.fuzzy
    assert changed.msgstr == translated_before, "the old translation was lost"
    assert changed.previous_msgid == old, "the previous source text is not recorded (#| msgid)"
    assert after.find(old) is None
    assert {e.msgid: e.msgstr for e in after if e.msgid != new} == untouched
