exec(open(__file__.replace("test-zh-search", "common"), encoding="utf-8").read())
extensions.append("search.zh_search")  # noqa: F821 (defined by the shared configuration)
