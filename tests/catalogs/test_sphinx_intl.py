"""What the familiar `sphinx-intl update -p _build/gettext -l en` does to this project's catalogs.

Translators of Sphinx projects know sphinx-intl, so the contributor guide has to say whether it
is safe here. It is: no translation is lost and the catalogs stay valid. It is not equivalent to
`make update-po`: Babel's merge does not record the previous source text (`#| msgid`) of a changed
paragraph, which is what a translator needs to see what changed, and it writes line numbers and
its own wrapping. `make update-po` afterwards brings the format back. If the previous-text test
ever fails, sphinx-intl has learned to keep it and the guide can recommend it.
"""

import subprocess

import polib
import pytest
from fixture_project import FIXTURE, make, make_project
from tools.lint.lint_po import catalog_file_errors
from test_update_po import CHANGED_NEW, CHANGED_OLD, INDEX


@pytest.fixture(scope="module")
def after_sphinx_intl(tmp_path_factory):
    project = make_project(tmp_path_factory.mktemp("sphinx-intl"))
    index = project / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8").replace(CHANGED_OLD, CHANGED_NEW), encoding="utf-8")
    make(project, "gettext")
    result = subprocess.run([str(project / ".venv" / "bin" / "sphinx-intl"), "update", "-p", "_build/gettext",
                             "-l", "en", "-d", "locale"], cwd=project, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def test_sphinx_intl_update_loses_no_translation_and_keeps_the_catalogs_valid(after_sphinx_intl):
    for original in sorted((FIXTURE / "locale").rglob("*.po")):
        updated = after_sphinx_intl / original.relative_to(FIXTURE)
        assert catalog_file_errors(updated) == []
        kept = {e.msgstr for e in polib.pofile(str(updated))} | {e.msgstr for e in polib.pofile(str(updated)).obsolete_entries()}
        lost = [e.msgstr for e in polib.pofile(str(original)) if e.msgstr and e.msgstr not in kept]
        assert lost == [], f"{updated}: translations lost: {lost}"


def test_sphinx_intl_does_not_record_the_previous_source_text(after_sphinx_intl):
    entry = polib.pofile(str(after_sphinx_intl / INDEX)).find(CHANGED_NEW)
    assert entry is not None and entry.fuzzy
    assert entry.previous_msgid is None, "sphinx-intl now keeps #| msgid: the guide may recommend it"


def test_make_update_po_afterwards_restores_the_project_format(after_sphinx_intl):
    make(after_sphinx_intl, "update-po")
    text = (after_sphinx_intl / INDEX).read_text(encoding="utf-8")
    assert "#: docs/index.md\n" in text and ".md:" not in text, "locations: file only, project-relative"
    assert catalog_file_errors(after_sphinx_intl / INDEX) == []


def test_the_contributor_guide_says_which_command_to_use_and_why():
    from conftest import ROOT
    guide = (ROOT / "docs" / "contributing" / "index.md").read_text(encoding="utf-8")
    paragraph = next(p for p in guide.split("\n\n") if "sphinx-intl update" in p)
    assert "make update-po" in paragraph and "#| msgid" in paragraph, paragraph
