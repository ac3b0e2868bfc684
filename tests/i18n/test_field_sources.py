"""Field bodies reach the catalogs with their markup (docs/_ext/i18n/field_sources.py)."""

import subprocess

from fixture_builds import ROOTS, SPHINX_BUILD, SPHINX_TIMEOUT, build


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
