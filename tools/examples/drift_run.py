"""Run every extracted example in this interpreter and record what each one did (for tools/examples/drift.py).

    python tools/examples/drift_run.py EXAMPLES.json RESULTS.json

EXAMPLES.json is what ``doctest_floor.py extract`` writes (the doctest groups of every page,
with the global setup and flags of conf.py). This script needs only the standard library and
whatever the examples import, so it runs in a scratch venv that has no Sphinx. For every example
it records the source, the expected output, what it really printed (an exception as its last
lines, without the file paths of the traceback, which differ between environments) and whether
the page's expectation held; for every block, the warnings it emitted.

When ``torch`` cannot be imported (a Python without it, to check the Python pages), the global
setup is skipped and the groups that use torch or NumPy are counted as not run.
"""

import doctest
import importlib.util
import io
import json
import re
import sys
import traceback
import warnings
from contextlib import redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "docs" / "_ext"))  # doctest_state

NEEDS_TORCH = re.compile(r"\b(torch|np|nn|F)\.|\bimport (torch|numpy)\b")
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")  # object addresses differ from run to run: not a change


def exception_lines(exc_type, exc_value) -> str:
    """What a doctest compares of an exception: its header and its last lines, no paths."""
    only = "".join(traceback.format_exception_only(exc_type, exc_value))
    return "Traceback (most recent call last):\n  ...\n" + only


def without_traceback_body(got: str) -> str:
    """doctest appends the whole traceback to ``got``; keep the printed text and the exception lines."""
    head, marker, tail = got.partition("Traceback (most recent call last):\n")
    if not marker:
        return got
    last = [line for line in tail.splitlines(keepends=True) if not line.startswith((" ", "\t"))]
    return head + marker + "  ...\n" + "".join(last)


class Recorder(doctest.DocTestRunner):
    """A DocTestRunner that keeps each example's outcome instead of printing a report."""

    def __init__(self, flags: int):
        super().__init__(optionflags=flags, verbose=False)
        self.outcomes: list[dict] = []

    def _keep(self, example, ok: bool, got: str) -> None:
        self.outcomes.append({"source": example.source, "want": example.want, "got": ADDRESS.sub("0x…", got),
                              "ok": ok})

    def report_start(self, out, test, example):
        pass

    def report_success(self, out, test, example, got):
        self._keep(example, True, without_traceback_body(got))

    def report_failure(self, out, test, example, got):
        self._keep(example, False, without_traceback_body(got))

    def report_unexpected_exception(self, out, test, example, exc_info):
        self._keep(example, False, exception_lines(*exc_info[:2]))


def warning_text(warning: warnings.WarningMessage) -> str:
    first_line = str(warning.message).strip().splitlines()[0] if str(warning.message).strip() else ""
    return f"{warning.category.__name__}: {ADDRESS.sub('0x…', first_line)}"


def run_block(kind: str, code: str, namespace: dict, runner: Recorder, state: dict) -> None:
    parser = doctest.DocTestParser()
    if kind in ("testsetup", "testcleanup"):
        exec(code, namespace)
    elif kind == "doctest":
        test = parser.get_doctest(code, {}, "drift", None, 0)
        test.globs = namespace  # the blocks of a group share one namespace, as in the doctest builder
        runner.run(test, out=lambda _: None, clear_globs=False)
    elif kind == "testcode":
        buffer = io.StringIO()
        with redirect_stdout(buffer):
            try:
                exec(code, namespace)
            except Exception as error:  # shown as the doctest builder would compare it
                buffer.write(exception_lines(type(error), error))
        state["printed"] = {"source": code, "got": ADDRESS.sub("0x…", buffer.getvalue())}
    elif kind == "testoutput" and state.get("printed"):
        printed = state.pop("printed")
        ok = doctest.OutputChecker().check_output(code.strip() + "\n", printed["got"].strip() + "\n",
                                                  runner.optionflags)
        runner.outcomes.append({**printed, "want": code, "ok": ok})


def run_group(global_setup: str, blocks: list, flags: int) -> tuple[list[dict], list[str]]:
    namespace: dict = {}  # as the doctest builder's: no __name__
    runner, state, emitted = Recorder(flags), {}, []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # every warning, deprecations included, each time it is issued
        exec(global_setup, namespace)
        del caught[:]  # the setup's own warnings belong to no page
        for kind, code in blocks:
            try:
                run_block(kind, code, namespace, runner, state)
            except Exception as error:  # a failing testsetup: the rest of the group cannot run
                runner.outcomes.append({"source": code, "want": "", "ok": False,
                                        "got": exception_lines(type(error), error)})
                break
        emitted = sorted({warning_text(w) for w in caught})
    return runner.outcomes, emitted


def main(examples_path: Path, results_path: Path) -> None:
    data = json.loads(examples_path.read_text(encoding="utf-8"))
    has_torch = importlib.util.find_spec("torch") is not None
    setup = data["global_setup"] if has_torch else ""
    pages, not_run = {}, 0
    for page, groups in data["pages"].items():
        examples, emitted = [], set()
        for group, blocks in groups.items():
            if not has_torch and any(NEEDS_TORCH.search(code) for _, code in blocks):
                not_run += 1
                continue
            outcomes, group_warnings = run_group(setup, blocks, data["flags"])
            examples += [{"group": group, "position": i, **o} for i, o in enumerate(outcomes)]
            emitted.update(group_warnings)
        pages[page] = {"examples": examples, "warnings": sorted(emitted)}
    torch_version = None
    if has_torch:
        import torch
        torch_version = torch.__version__
    results = {"python": sys.version.split()[0], "torch": torch_version, "groups_not_run": not_run, "pages": pages}
    results_path.write_text(json.dumps(results, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(Path(sys.argv[1]), Path(sys.argv[2]))
