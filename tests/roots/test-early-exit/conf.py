exec(open(__file__.replace("test-early-exit", "common"), encoding="utf-8").read())
extensions.append("doctest_guard")
