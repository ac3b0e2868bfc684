exec(open(__file__.replace("test-cut-region", "common"), encoding="utf-8").read())
extensions.append("examples.snippet_regions")
snippet_dirs = ["snippets"]
