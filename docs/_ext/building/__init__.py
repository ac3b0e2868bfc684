"""How a build runs: it starts only from sound catalogs, survives an interrupted or disk-full
build, and keeps the log to what matters (no false "configuration has changed", no MyST dump);
``make check`` rereads the pages it names; the sidebar's tree is resolved once per folder.

May import: ``tools`` (the catalog reader). No other package of ``docs/_ext``.
"""
