"""The translation catalogs: the one reader (``catalog_file``: msgfmt and three checks of its own)
and the one writer (``catalog_write``), the line of an entry's text (``po_lines``), and the
commands built on them: ``make update-po``, ``make add-language``, ``make stats``, ``make todo``
and the completeness check (``check_catalogs``).

May import: ``tools.project``. The build (``docs/_ext``) and ``lint`` import it.
"""
