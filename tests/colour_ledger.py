"""The kinds of element whose colours this test run has checked on the built sites (tools/web/colour_kinds.py),
shared by the axe pass and the parallel view's axe test, and by the xdist workers. (tests/web/test_colour_kinds.py
keeps ledgers of its own, on pages of its own.)"""

import fcntl

from conftest import BUILDDIR, RUN_ID


class SharedKinds:
    """The kinds of element (tools/web/colour_kinds.py) whose colours this test run has checked, in a file that
    the xdist workers share: a kind one worker settled the other skips. One ledger serves both themes: a kind
    holds the element's computed colours, which the theme changes. Without xdist (no run id) the kinds stay in
    this process: a file named after a process id could be an earlier run's, whose kinds would pass unread."""

    def __init__(self):
        self.path = BUILDDIR / f".colour-kinds-{RUN_ID}" if RUN_ID else None
        self.kinds: set[str] = set()
        if self.path:  # the ledgers of earlier runs (one file per run) are of no more use
            for old in BUILDDIR.glob(".colour-kinds-*"):
                if old != self.path:
                    old.unlink(missing_ok=True)

    def known(self) -> set[str]:
        if self.path and self.path.is_file():
            return set(self.path.read_text(encoding="utf-8").split())
        return set(self.kinds)

    def add(self, kinds) -> None:
        kinds = list(kinds)
        self.kinds.update(kinds)
        if self.path:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path, "a", encoding="utf-8") as ledger:
                fcntl.flock(ledger, fcntl.LOCK_EX)
                ledger.writelines(f"{kind}\n" for kind in kinds)


LEDGER = SharedKinds()
