"""Per-language configuration values (docs/_ext/i18n/lang_overrides.py)."""

import pytest
from sphinx.errors import ConfigError

from i18n.lang_overrides import apply_language_overrides


class FakeConfig(dict):
    """Just enough of sphinx.config.Config for lang_overrides."""

    def __getattr__(self, name):
        return self[name]


def test_language_overrides_apply_for_the_final_language():
    config = FakeConfig(language="en", html_title="x", language_overrides={"en": {"html_title": "English"}})
    apply_language_overrides(None, config)
    assert config["html_title"] == "English"


def test_language_overrides_reject_an_unknown_language_or_option():
    with pytest.raises(ConfigError, match="no entry for language 'ja'"):
        apply_language_overrides(None, FakeConfig(language="ja", language_overrides={"en": {}}))
    with pytest.raises(ConfigError, match="unknown option 'html_titel'"):
        apply_language_overrides(None, FakeConfig(language="en", language_overrides={"en": {"html_titel": 1}}))
