# The sidebar's navigation tree with and without building.navigation_cache (tests/building/test_navigation_cache.py
# builds it both ways, docs/_ext/ on PYTHONPATH). furo is the theme that asks every page for the whole tree.
extensions = ["myst_parser", "building.navigation_cache"]
html_theme = "furo"
