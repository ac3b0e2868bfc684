exec(open(__file__.replace("test-katex", "common"), encoding="utf-8").read())
extensions += ["maths.katex_math", "reader.page_contents"]
myst_enable_extensions = ["dollarmath"]
html_math_renderer = "katex"
html_theme = "furo"
