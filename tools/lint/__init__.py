"""``make lint-po``: the mistakes in the catalogs that Sphinx never warns about.

``lint_po`` is the command line. May import: ``tools.catalogs``, ``tools.terminology``,
``tools.project``.
"""
