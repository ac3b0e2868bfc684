exec(open(__file__.replace("test-wrong-output", "common"), encoding="utf-8").read())
