exec(open(__file__.replace("test-fields", "common"), encoding="utf-8").read())
extensions += ["i18n.field_sources", "checks.markup_leftovers"]
myst_enable_extensions = ["fieldlist"]
