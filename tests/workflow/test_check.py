"""make check: what a contributor runs before sending a change, on the pages the branch changed.

On a copy of tests/roots/test-check-project (a glossary, three pages that share a heading, each with an
example, their English catalogs) made into a git repository: a clean change passes; each kind of mistake
a translator or author makes fails the check, named with its file and line.
"""

import re
import shutil
import subprocess

import pytest
from conftest import ROOT
from fixture_project import MAKE_TIMEOUT

FIXTURE = ROOT / "tests" / "roots" / "test-check-project"


def git(project, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.org", *args], cwd=project,
                   check=True, capture_output=True, timeout=60)


def check_project(tmp_path):
    """The fixture with the real Makefile, tools/ and docs/_ext/, on a branch 'topic' made from 'main'."""
    project = tmp_path / "project"
    shutil.copytree(FIXTURE, project)
    shutil.copytree(ROOT / "tools", project / "tools", ignore=shutil.ignore_patterns("__pycache__", "node_modules"))
    (project / "tools" / "katex" / "node_modules").symlink_to(ROOT / "tools" / "katex" / "node_modules")
    shutil.copytree(ROOT / "docs" / "_ext", project / "docs" / "_ext", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy2(ROOT / "Makefile", project / "Makefile")
    shutil.copy2(ROOT / "requirements.txt", project / "requirements.txt")  # older than the venv's stamp
    (project / ".venv").symlink_to(ROOT / ".venv")
    (project / ".gitignore").write_text("/.venv\n/_build/\n*.mo\n__pycache__/\nnode_modules\n", encoding="utf-8")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "base")
    git(project, "checkout", "-q", "-b", "topic")
    return project


def make_check(project, *args):
    return subprocess.run(["make", "--no-print-directory", "check", *args], cwd=project, capture_output=True,
                          text=True, timeout=MAKE_TIMEOUT)


def edit(path, old, new):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def line_of(path, text):
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    return check_project(tmp_path_factory.mktemp("check"))


def test_a_sentence_changed_with_its_translation_passes(project):
    page, po = project / "docs" / "chapter" / "b.md", project / "locale" / "en" / "LC_MESSAGES" / "chapter" / "b.po"
    edit(page, "这一页只有一个例子。", "这一页只有一个很短的例子。")
    edit(po, 'msgid "这一页只有一个例子。"\nmsgstr "This page has one example."',
         'msgid "这一页只有一个很短的例子。"\nmsgstr "This page has one short example."')
    done = make_check(project, "BRANCH=1")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr
    assert "check: 1 page changed on this branch since main: chapter/b" in done.stdout
    for step in ("in step", "lint", "build", "doctest"):
        assert re.search(rf"^check: {step}: OK \(\d+\.\d s\)$", done.stdout, re.M), step
    git(project, "checkout", "-q", "--", ".")


def test_each_mistake_fails_the_check_naming_its_file_and_line(project):
    page, po = project / "docs" / "chapter" / "a.md", project / "locale" / "en" / "LC_MESSAGES" / "chapter" / "a.po"
    edit(po, "is read with `x.dtype`.", "is read with x.dtype.")  # a dropped code span
    edit(po, "a {term}`tensor <张量>`", "an {term}`array <张量>`")  # the glossary's term rendered another way
    edit(po, 'msgstr "This paragraph explains the example below."', 'msgstr ""')  # an empty msgstr
    edit(po, 'msgid "陷阱"\nmsgstr "Pitfalls"', 'msgid "陷阱"\nmsgstr "Traps"')  # the other pages say Pitfalls
    edit(page, ">>> 1 + 1\n2", ">>> 1 + 1\n3")  # a failing example
    done = make_check(project, "BRANCH=1")
    out = done.stdout
    assert done.returncode != 0, out[-3000:]
    where = "locale/en/LC_MESSAGES/chapter/a.po"
    # a code span the translation lacks: the source line that has it (the lint's rule for what is missing)
    source_line = line_of(po, "数据类型用 `x.dtype` 读出")
    assert f"{where}:{source_line}: [code] " in out, out[-4000:]
    assert re.search(rf"{re.escape(where)}:{line_of(po, 'array <张量>')}: \[terminology\] .*shows 'array'", out)
    empty, traps = line_of(po, '"这一段说明下面的例子。"') + 1, line_of(po, '"Traps"')
    assert f"{where}:{empty}: [untranslated] " in out
    assert (f"{where}:{traps}: [consistency] '陷阱': translated 'Traps' here, "
            "but 'Pitfalls' in 2 other place(s)") in out
    assert f"docs/chapter/a.md:{line_of(page, '>>> 1 + 1')}: failed example (group default)" in out
    assert "check: FAILED: lint, build, doctest" in out
    git(project, "checkout", "-q", "--", ".")


def test_a_page_changed_without_make_update_po_fails_the_in_step_step(project):
    page = project / "docs" / "chapter" / "c.md"
    edit(page, "这一页也只有一个例子。", "这一页也只有一个例子，改过了。")
    done = make_check(project, "ONLY=chapter/c")
    assert done.returncode != 0
    assert re.search(r"c\.po:1: no entry for the current source text '这一页也只有一个例子，改过了。'", done.stdout), \
        done.stdout[-3000:]
    git(project, "checkout", "-q", "--", ".")
