exec(open(__file__.replace("test-broken-catalog", "common"), encoding="utf-8").read())
