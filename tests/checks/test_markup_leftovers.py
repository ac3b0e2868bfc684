"""Literal emphasis markers fail the build (docs/_ext/checks/markup_leftovers.py)."""

from fixture_builds import build


def test_literal_bold_next_to_chinese_is_reported_in_both_languages(tmp_path):
    chinese = build("test-fields", "html", tmp_path / "zh")
    assert chinese.returncode != 0
    assert "index.md:11: WARNING: literal '**' in the rendered text" in chinese.stderr, chinese.stderr
    english = build("test-fields", "html", tmp_path / "en", "-D", "language=en")
    assert english.returncode == 0, english.stderr  # the translation put the bold where CommonMark sees it
