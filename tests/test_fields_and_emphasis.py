"""Field bodies reach the catalogs with their markup; literal emphasis markers fail the build."""

import subprocess

from test_negative import ROOTS, SPHINX_BUILD, SPHINX_TIMEOUT, build


def test_a_field_body_is_extracted_with_its_markup(tmp_path):
    subprocess.run([*SPHINX_BUILD, "-b", "gettext", "-q", str(ROOTS / "test-fields"), str(tmp_path)], check=True,
                   timeout=SPHINX_TIMEOUT)
    pot = (tmp_path / "index.pot").read_text(encoding="utf-8")
    assert 'msgid "输入，默认 `None`。"' in pot, pot
    assert 'msgid "原样返回的 `x`。"' in pot, pot


def test_a_translated_field_keeps_its_code_spans(tmp_path):
    build("test-fields", "html", tmp_path, "-D", "language=en")
    html = (tmp_path / "html" / "index.html").read_text(encoding="utf-8")
    assert 'The input. Default <code class="docutils literal notranslate"><span class="pre">None</span></code>.' \
        in html, html


def test_literal_bold_next_to_chinese_is_reported_in_both_languages(tmp_path):
    chinese = build("test-fields", "html", tmp_path / "zh")
    assert chinese.returncode != 0
    assert "index.md:11: WARNING: literal '**' in the rendered text" in chinese.stderr, chinese.stderr
    english = build("test-fields", "html", tmp_path / "en", "-D", "language=en")
    assert english.returncode == 0, english.stderr  # the translation put the bold where CommonMark sees it
