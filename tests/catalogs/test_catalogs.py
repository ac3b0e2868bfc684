"""The catalogs are valid, complete and in step with the sources.

Valid and in step: every language. Complete (no fuzzy or untranslated entry): the published
translations; a draft reports what it still lacks (conftest.check_translated_content).
"""

from tools.catalogs.check_catalogs import check
from conftest import LANGUAGES, check_translated_content

INCOMPLETE = (": fuzzy entry ", ": untranslated entry ")


def test_catalogs_are_complete_and_current(gettext_templates):
    errors = check(LANGUAGES[1:], pot_dir=gettext_templates)
    for language in LANGUAGES[1:]:
        mine = [e for e in errors if f"/{language}/LC_MESSAGES/" in e or f" {language} catalog" in e]
        check_translated_content(language, [e for e in mine if any(m in e for m in INCOMPLETE)],
                                 "fuzzy or untranslated entries")
        broken = [e for e in mine if not any(m in e for m in INCOMPLETE)]
        assert not broken, "\n".join(broken)
    others = [e for e in errors if not any(f"/{lang}/LC_MESSAGES/" in e or f" {lang} catalog" in e
                                           for lang in LANGUAGES[1:])]
    assert not others, "\n".join(others)
