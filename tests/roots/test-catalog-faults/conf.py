# The catalog faults of issue 31: a page, the status page and the bilingual view, built in both languages
# with the project's catalog check; broken/ holds the malformed versions of locale/en/LC_MESSAGES/index.po.
exec(open(__file__.replace("test-catalog-faults", "common"), encoding="utf-8").read())
extensions = ["myst_parser", "building.catalog_check", "building.build_recovery", "i18n.parallel_view",
              "i18n.translation_status", "i18n.untranslated_warnings"]
exclude_patterns = ["broken"]
site_languages = {"zh_CN": {"hreflang": "zh-CN", "label": "中文"}, "en": {"hreflang": "en", "label": "English"}}
html_search_language = "en"  # no jieba: this fixture tests catalogs, not search
