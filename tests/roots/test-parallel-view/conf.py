exec(open(__file__.replace("test-parallel-view", "common"), encoding="utf-8").read())
extensions += ["field_sources", "fast_i18n", "translated_nodes", "language_switcher", "parallel_view"]
myst_enable_extensions = ["fieldlist", "deflist"]
site_languages = {"zh_CN": {"hreflang": "zh-CN", "label": "中文"}, "en": {"hreflang": "en", "label": "English"}}
