"""``make lint-po``: the mistakes in the catalogs that Sphinx never warns about.

``lint_po`` is the command line: it reads each catalog once, makes an ``entry.Entry`` of each entry
(its msgid and msgstr parsed once, by ``po_markup.Markup``, on first use) and hands it to each rule
family in turn, one module a family: ``lint_markup`` (code, role, label, math, placeholder, html,
markup), ``lint_numbers``, ``lint_links`` (link, url), ``lint_terms`` (terminology, variant),
``lint_drafts`` (fuzzy, previous, untranslated; draft languages); across the catalogs of a language,
``lint_consistency`` and ``lint_spelling``. ``lint_ok`` reads the ``# lint-ok:`` exceptions.

A new rule goes into its family's module, with its tests in ``tests/lint/``; a new family is a
module with a ``problems(entry)`` function that ``lint_po.entry_problems`` calls.

May import: ``tools.catalogs``, ``tools.terminology``, ``tools.project``; the families import
``entry``, ``po_markup`` and ``lint_ok``, never each other or ``lint_po``.
"""
