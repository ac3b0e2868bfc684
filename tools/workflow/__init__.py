"""The commands that drive the others: the system tools ``make test`` and ``make html`` need
(``system_deps``, run by the system's Python), ``make check`` before sending a change, and
``make bench``.

May import: every other group of ``tools``.
"""
