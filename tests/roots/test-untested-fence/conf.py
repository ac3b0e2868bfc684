exec(open(__file__.replace("test-untested-fence", "common"), encoding="utf-8").read())
