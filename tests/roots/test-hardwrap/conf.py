exec(open(__file__.replace("test-hardwrap", "common"), encoding="utf-8").read())
