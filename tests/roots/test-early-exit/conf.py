exec(open(__file__.replace("test-early-exit", "common"), encoding="utf-8").read())
extensions.append("examples.doctest_guard")
