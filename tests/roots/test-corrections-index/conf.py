# The corrections index on its own. tests/reader/test_corrections_index.py copies this project into a
# temporary folder (it is built, edited and rebuilt there) and puts docs/_ext/ on PYTHONPATH.
extensions = ["myst_parser", "reader.corrections_index"]
myst_enable_extensions = ["colon_fence"]
language = "zh_CN"
locale_dirs = ["locale/"]
gettext_compact = False
html_theme = "basic"
