"""The translated build: per-language configuration, a fast and faithful i18n transform (field
bodies and display formulas keep their markup), the theme's strings, warnings about unfinished
entries, the translation status page and the bilingual (parallel) view.

May import: ``tools`` (the catalog reader, line finder and statistics). No other package of
``docs/_ext``.
"""
