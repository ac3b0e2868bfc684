"""Apply per-language configuration values.

``conf.py`` runs before ``-D language=en`` is applied, so it cannot branch on
the language. It declares ``language_overrides = {lang: {name: value}}``
instead, and this extension copies the entry for the final language onto the
configuration when Sphinx reports it ready (``config-inited``).
"""

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.errors import ConfigError


def apply_language_overrides(app: Sphinx, config: Config) -> None:
    overrides = config.language_overrides
    if not overrides:
        return
    if config.language not in overrides:
        known = ", ".join(sorted(overrides))
        raise ConfigError(
            f"language_overrides has no entry for language {config.language!r} "
            f"(known: {known}); add one to conf.py"
        )
    for name, value in overrides[config.language].items():
        if name not in config:
            raise ConfigError(f"language_overrides[{config.language!r}] sets unknown option {name!r}")
        config[name] = value


def setup(app: Sphinx) -> dict:
    app.add_config_value("language_overrides", {}, "env", types=frozenset({dict}))
    # Priority below the default so the values are in place before other
    # extensions read them in their own config-inited handlers.
    app.connect("config-inited", apply_language_overrides, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
