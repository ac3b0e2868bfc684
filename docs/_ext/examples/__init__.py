"""Every example on a page runs: the ledger of code blocks (tested or visibly not Python), the
regions of snippets a page includes, the guarded doctest builder (a record of the examples, a
time limit each) and the state every doctest group starts from.

May import: nothing of the project. ``tools/examples/`` reads what the builder records, and
runs ``doctest_state`` as the doctest builder does.
"""
