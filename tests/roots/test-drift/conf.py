# A tiny project for tests/examples/test_drift.py: one page, documented against fakelib version 1;
# version-2/ is "the next release", which changes one output, one signature and one warning.
extensions = ["myst_parser", "sphinx.ext.doctest"]
doctest_global_setup = "import fakelib"
import doctest as _doctest  # noqa: E402

doctest_default_flags = _doctest.ELLIPSIS
del _doctest
