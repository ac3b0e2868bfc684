"""The pages' examples and signatures outside the HTML build: ``make doctest``'s report (against
the record ``docs/_ext/examples/doctest_guard.py`` writes), the floor for ``make bench`` (every
example in one plain Python), ``make drift`` (the examples, signatures and warnings under another
torch or Python) and the signature check.

May import: ``tools.project``. ``drift_run`` runs in a scratch interpreter: the standard library and
``examples.doctest_state`` only.
"""
