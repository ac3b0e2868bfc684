"""Every file in snippets/ runs, and what it prints is what its .out file says.

A snippet without an .out file must check itself with assert statements. Every run
has a time limit (SNIPPET_TIMEOUT) and must leave no process behind; a snippet that
hangs is killed with everything it started and reported, and the others are still
checked.

Devices. A .out file holds what the snippet prints on the CPU, which is what the
pages show. Every snippet runs with the GPU hidden (CUDA_VISIBLE_DEVICES=""), so that
comparison is exact and the same on every machine. On a machine with a GPU, the
snippets that use one (their source mentions torch.cuda) run a second time with the
GPU visible: they must pass their own asserts (train.py: the resumed run equals the
uninterrupted one bit for bit) and print the lines of their .out file with only the
decimal numbers allowed to differ (losses and accuracies: other kernels, and dropout
masks drawn from the CUDA generator).
"""

import difflib
import os
import re
import sys
import textwrap

import pytest
import torch
from bounded_run import run_bounded, running
from conftest import ROOT
from examples.snippet_regions import marker_pairs, region_problems

pytestmark = pytest.mark.long  # conftest.py schedules it early

SNIPPETS = ROOT / "snippets"
SNIPPET_TIMEOUT = 180  # seconds; the slowest snippet takes about 30 s on a busy 2-core machine
CPU_ONLY = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
DECIMAL = re.compile(r"\d+\.\d+")


def test_snippet_folder_has_no_stray_files():
    strays = [p for p in SNIPPETS.rglob("*")
              if p.is_file() and p.suffix not in {".py", ".out"} and p.name != ".gitkeep" and "__pycache__" not in p.parts]
    assert not strays, f"unexpected files in snippets/: {strays}"
    orphans = [p for p in SNIPPETS.rglob("*.out") if not p.with_suffix(".py").exists()]
    assert not orphans, f".out files without a snippet: {orphans}"


def exact(text: str) -> str:
    return text


def decimals_masked(text: str) -> str:
    return DECIMAL.sub("#.#", text)


def check_snippet(snippet, workdir, *, env=CPU_ONLY, same=exact, timeout=SNIPPET_TIMEOUT) -> list[str]:
    """Problems of one run of a snippet; `same` says which part of the output must equal its .out file."""
    result = run_bounded([sys.executable, snippet], cwd=workdir, env=env, timeout=timeout)
    problems = result.problems(str(snippet))
    expected = snippet.with_suffix(".out")
    if result.returncode == 0 and not result.timed_out:
        if expected.exists():
            wanted = expected.read_text(encoding="utf-8")
            if same(result.stdout) != same(wanted):
                diff = difflib.unified_diff(wanted.splitlines(keepends=True), result.stdout.splitlines(keepends=True),
                                            str(expected), "printed")
                problems.append(f"{snippet}: output differs from {expected}:\n{''.join(diff)}")
        elif "assert " not in snippet.read_text(encoding="utf-8"):
            problems.append(f"{snippet}: has no {expected.name} and no assert, so nothing is checked")
    if any(workdir.iterdir()):
        problems.append(f"{snippet}: left files behind: {sorted(p.name for p in workdir.iterdir())}")
    return problems


def check_snippets(snippets, tmp_path, **options) -> list[str]:
    """Run every snippet, each in a fresh working directory; a failure never stops the others."""
    problems = []
    for number, snippet in enumerate(snippets):
        workdir = tmp_path / str(number)
        workdir.mkdir()
        problems += check_snippet(snippet, workdir, **options)
    return problems


def test_every_snippet_runs_and_prints_expected_output(tmp_path):
    problems = check_snippets(sorted(SNIPPETS.rglob("*.py")), tmp_path)
    assert not problems, "\n".join(problems)


@pytest.mark.skipif(not torch.cuda.is_available(),
                    reason="no GPU: the snippets that use one (train.py, torchrun_train.py) ran on the CPU only")
def test_snippets_that_use_the_gpu_run_on_it(tmp_path):
    on_gpu = [p for p in sorted(SNIPPETS.rglob("*.py")) if "torch.cuda" in p.read_text(encoding="utf-8")]
    assert on_gpu, "no snippet mentions torch.cuda any more: update this test and the module docstring"
    problems = check_snippets(on_gpu, tmp_path, env=dict(os.environ), same=decimals_masked)
    assert not problems, "\n".join(problems)


def test_the_gpu_comparison_lets_only_decimal_numbers_differ():
    """What test_snippets_that_use_the_gpu_run_on_it compares, checked here on any machine."""
    recorded = (SNIPPETS / "training" / "train.out").read_text(encoding="utf-8")
    other_losses = re.sub(r"(loss|accuracy) \d\.\d+", r"\1 9.876", recorded)
    assert other_losses != recorded and decimals_masked(other_losses) == decimals_masked(recorded)
    for change in [("equals uninterrupted run: True", "equals uninterrupted run: False"),
                   ("checkpoint saved after epoch 3", "checkpoint saved after epoch 4"), ("epoch 6:", "epoch 7:")]:
        assert decimals_masked(recorded.replace(*change)) != decimals_masked(recorded), change


def test_a_failing_snippet_is_caught(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("print('a')\nprint('same')\n")
    (tmp_path / "bad.out").write_text("b\nsame\n")
    workdir = tmp_path / "run"
    workdir.mkdir()
    assert check_snippet(bad, workdir) == [
        f"{bad}: output differs from {tmp_path / 'bad.out'}:\n"
        f"--- {tmp_path / 'bad.out'}\n+++ printed\n@@ -1,2 +1,2 @@\n-b\n+a\n same\n"]


# A snippet that hangs, and starts a child that ignores SIGINT and would outlive it.
HANGING = textwrap.dedent("""\
    import signal, subprocess, sys, time
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"],
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    print("child", child.pid, flush=True)
    time.sleep(600)
""")


def test_a_hanging_snippet_is_killed_with_its_children_and_the_others_are_still_checked(tmp_path):
    folder = tmp_path / "snippets"
    folder.mkdir()
    (folder / "a_hangs.py").write_text(HANGING)
    (folder / "b_fine.py").write_text("print('fine')\n")
    (folder / "b_fine.out").write_text("fine\n")
    runs = tmp_path / "runs"
    runs.mkdir()
    problems = check_snippets(sorted(folder.glob("*.py")), runs, timeout=3)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{folder / 'a_hangs.py'}: still running after 3 s, killed with its process group")
    child = int(problems[0].split("output so far:\nchild ")[1].split()[0])
    assert not running(child), "the hanging snippet's child outlived it"


def test_a_snippet_that_leaves_a_process_running_is_caught(tmp_path):
    leaves = tmp_path / "leaves.py"
    leaves.write_text("import subprocess, sys\n"
                      "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'],\n"
                      "                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
                      "assert True\n")
    workdir = tmp_path / "run"
    workdir.mkdir()
    problems = check_snippet(leaves, workdir, timeout=30)
    assert len(problems) == 1 and problems[0].startswith(f"{leaves}: left processes running after it exited: ["), \
        problems
    assert "time.sleep(600)" in problems[0]


def test_every_region_of_every_snippet_ends_where_its_code_ends():
    """The rules docs/_ext/examples/snippet_regions.py applies to each literalinclude, here on every pair of
    markers in snippets/, included by a page or not."""
    problems = []
    for snippet in sorted(SNIPPETS.rglob("*.py")):
        pairs, unpaired = marker_pairs(snippet.read_text(encoding="utf-8").splitlines())
        problems += [f"{snippet}: {message}" for message in unpaired]
        for name, _, _ in pairs:
            problems += region_problems(snippet, {"start-after": f"# [{name}]", "end-before": f"# [/{name}]"})
    assert not problems, "\n".join(problems)


def moved(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def test_an_end_marker_moved_up_one_line_is_caught(tmp_path):
    """The fault of issue 31: the program runs as before; the `data` listing lost `y = 2 * x + 1`."""
    program = tmp_path / "doctest_guide.py"
    (tmp_path / "doctest_guide.out").write_text((SNIPPETS / "appendix" / "doctest_guide.out").read_text(encoding="utf-8"))
    program.write_text(moved((SNIPPETS / "appendix" / "doctest_guide.py").read_text(encoding="utf-8"),
                             "y = 2 * x + 1\n# [/data]\n", "# [/data]\ny = 2 * x + 1\n"), encoding="utf-8")
    marker = next(n for n, line in enumerate(program.read_text(encoding="utf-8").splitlines(), 1) if line == "# [/data]")
    (tmp_path / "run").mkdir()
    assert check_snippet(program, tmp_path / "run") == []  # it still runs and prints what its .out file says
    assert region_problems(program, {"start-after": "# [data]", "end-before": "# [/data]"}) == [
        f"{program}:{marker}: the region ends at '# [/data]' in the middle of a run of code: line {marker + 1} "
        "('y = 2 * x + 1') follows it; end the region below the code it belongs to, or put a blank line between"]


def test_a_marker_inside_a_statement_is_caught(tmp_path):
    """`# [/fit]` above the loop's last line, `# [data]` between a call's two lines, and a region that
    begins in a block and ends outside it."""
    source = (SNIPPETS / "appendix" / "doctest_guide.py").read_text(encoding="utf-8")
    program = tmp_path / "program.py"
    program.write_text(moved(source, "    optimizer.step()\n# [/fit]\n", "# [/fit]\n    optimizer.step()\n"),
                       encoding="utf-8")
    problems = region_problems(program, {"start-after": "# [fit]", "end-before": "# [/fit]"})
    assert len(problems) == 1 and "the region ends at '# [/fit]' inside the statement of lines 17-22" in problems[0], \
        problems
    program.write_text(moved(source, "# [data]\nx = torch.linspace(-1, 1, 64)", "x = torch.linspace(\n# [data]\n-1, 1, 64)"),
                       encoding="utf-8")
    problems = region_problems(program, {"start-after": "# [data]", "end-before": "# [/data]"})
    assert len(problems) == 1 and "the region starts at '# [data]' inside the statement of lines 8-10" in problems[0], \
        problems
    # a region that starts inside a loop's body and runs on past its end: no statement crosses a marker
    program.write_text("for i in range(2):\n    a = i\n    # [r]\n    b = i\nprint(b)\n# [/r]\n", encoding="utf-8")
    assert region_problems(program, {"start-after": "# [r]", "end-before": "# [/r]"}) == [
        f"{program}:3: the region between '# [r]' and '# [/r]' does not parse on its own (unexpected indent, line 4): "
        "a marker stands inside a statement"]
