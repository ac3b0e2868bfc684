exec(open(__file__.replace("test-fields", "common"), encoding="utf-8").read())
extensions += ["field_sources", "markup_leftovers"]
myst_enable_extensions = ["fieldlist"]
