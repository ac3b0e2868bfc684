exec(open(__file__.replace("test-hang", "common"), encoding="utf-8").read())
extensions.append("examples.doctest_guard")
