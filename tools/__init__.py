"""The project's command-line tools and the library they share, grouped by concern.

``project`` says where things are; ``terminology/`` holds the term and variant tables and their
reader. ``catalogs/``: read, write, merge, count and check the translation catalogs. ``lint/``:
``make lint-po``, one module per rule family. ``web/``: the built site served, driven in a browser
and measured. ``examples/``: the pages' examples and signatures outside the HTML build (the doctest
report, the floor, drift under another torch). ``workflow/``: the commands that drive the others
(``make test``'s system tools, ``make check``, ``make bench``). ``axe/``, ``katex/`` and
``lighthouse/`` are node packages, pinned by their lock files; ``spelling/`` is the lint's word lists.

Imports go one way: workflow -> web, lint, catalogs, examples; lint -> catalogs, terminology;
terminology -> catalogs; everything -> project. A tool imports no extension of ``docs/_ext``, with two
exceptions: the doctest tools run ``examples.doctest_state`` as the doctest builder does (the examples'
own setup), and ``web.search_documents`` splits Chinese with ``search.zh_search``, as the site's index does.
Each tool runs as ``python tools/<group>/<tool>.py`` (or ``python -m tools.<group>.<tool>``); the
extensions, the tests and a tool run by path import them from the repository root: ``tools.*``.
"""
