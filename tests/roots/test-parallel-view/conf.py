exec(open(__file__.replace("test-parallel-view", "common"), encoding="utf-8").read())
extensions += ["i18n.field_sources", "i18n.fast_i18n", "i18n.translated_nodes", "reader.language_switcher",
               "i18n.parallel_view"]
myst_enable_extensions = ["fieldlist", "deflist"]
site_languages = {"zh_CN": {"hreflang": "zh-CN", "label": "中文"}, "en": {"hreflang": "en", "label": "English"}}
