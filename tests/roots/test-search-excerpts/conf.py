# The search excerpts on their own. tests/search/test_search_excerpts.py copies this project into a
# temporary folder (it is built, edited and rebuilt there) and puts docs/_ext/ on PYTHONPATH.
extensions = ["myst_parser", "sphinx.ext.doctest", "search.search_excerpts"]
myst_enable_extensions = ["dollarmath"]
language = "zh_CN"
html_theme = "basic"
