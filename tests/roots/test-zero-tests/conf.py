exec(open(__file__.replace("test-zero-tests", "common"), encoding="utf-8").read())
