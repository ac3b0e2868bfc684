"""The catalogs are valid, complete and in step with the sources."""

from check_catalogs import check
from conftest import LANGUAGES


def test_catalogs_are_complete_and_current(gettext_templates):
    errors = check(LANGUAGES[1:], pot_dir=gettext_templates)
    assert not errors, "\n".join(errors)
