"""The multi-process snippets fail in seconds, with a message, and leave no process behind.

Each test runs a snippet through a small driver (written to a temporary folder) that
imports it and injects one fault: a rank or a DataLoader worker that is stuck, or a
parent that is killed while its ranks run. The drivers shorten the snippets' time
limits, so the tests take seconds; the snippets' own limits are a few times longer.
Every run is bounded by tests/bounded_run.py: a snippet that hangs fails the test at
LIMIT seconds instead of blocking the suite. A driver whose patch no longer reaches
the snippet (a renamed function) lets the program succeed, and the test fails.
"""

import os
import re
import signal
import sys
import time

import pytest
from bounded_run import kill_group, members, read_line, run_bounded, start, wait_for_group_to_end
from conftest import ROOT

pytestmark = pytest.mark.long  # conftest.py schedules it early

SNIPPETS = ROOT / "snippets"
LIMIT = 90  # seconds; a fixed snippet fails within about 30 s on a busy 2-core machine (load 8)
DRAIN_TIMEOUT = 30  # seconds to read what a killed program wrote, once its group is gone

DDP_DRIVER = """\
import datetime, sys, time
sys.path.insert(0, {folder!r})
import ddp_equivalence as snippet

def stuck(*args, **kwargs):
    print("a rank is stuck", flush=True)
    time.sleep(600)

def worker(rank, *args):
    snippet.TIMEOUT = datetime.timedelta(seconds={timeout})
    if rank in {ranks!r}:
        if {fault!r} == "no-result":
            return
        if {fault!r} == "stuck-before-init":
            stuck()
        snippet.make_dataset = stuck  # called after DDP is built: the others wait in the first all-reduce
    snippet.worker(rank, *args)

def parent_stuck():
    print("the ranks are starting", flush=True)
    time.sleep(600)

if __name__ == "__main__":
    snippet.RUN_TIMEOUT = {run_timeout}
    snippet.worker = worker
    if {fault!r} == "parent-stuck":
        snippet.single_process_run = parent_stuck  # runs while the ranks start
    snippet.main()
"""


def ddp_driver(tmp_path, fault, *, ranks=(1,), timeout=5, run_timeout=120):
    """A driver of ddp_equivalence.py in which `ranks` have the fault; TIMEOUT and RUN_TIMEOUT in seconds."""
    driver = tmp_path / "driver.py"
    driver.write_text(DDP_DRIVER.format(folder=str(SNIPPETS / "devices"), ranks=tuple(ranks), fault=fault,
                                        timeout=timeout, run_timeout=run_timeout))
    return driver


@pytest.mark.parametrize(("fault", "message"), [
    ("stuck-before-init", r"DistStoreError: Timed out after \d+ seconds waiting for clients\. 1/2 clients joined\."),
    ("stuck-mid-training", r"-- Process 0 terminated with the following error:(.|\n)*"
                           r"Timed out waiting 5000ms for (recv|send) operation to complete"),
])
def test_a_stuck_rank_makes_the_ddp_program_fail_within_its_timeout(tmp_path, fault, message):
    result = run_bounded([sys.executable, ddp_driver(tmp_path, fault)], cwd=tmp_path, timeout=LIMIT)
    assert not result.timed_out, result.problems(f"ddp_equivalence.py, rank 1 {fault}")
    assert result.returncode == 1 and re.search(message, result.stderr), result.stderr
    assert result.left_behind == []


@pytest.mark.parametrize(("fault", "run_timeout", "message"), [
    ("stuck-mid-training", 5, "TimeoutError: the ranks did not finish within 5 s"),
    # The ranks end by themselves here: a limit that a busy machine's imports of torch cannot reach first.
    ("no-result", 120, "RuntimeError: a rank exited without sending its parameters"),
])
def test_ranks_that_never_meet_make_the_parent_fail(tmp_path, fault, run_timeout, message):
    """Every rank has the fault, so no collective waits for another: the parent itself must give up."""
    driver = ddp_driver(tmp_path, fault, ranks=(0, 1), timeout=60, run_timeout=run_timeout)
    result = run_bounded([sys.executable, driver], cwd=tmp_path, timeout=LIMIT)
    assert not result.timed_out, result.problems(f"ddp_equivalence.py, every rank {fault}")
    assert result.returncode == 1 and message in result.stderr, result.stderr
    assert result.left_behind == []


def ignore_sigint():
    # What a shell does to a job it starts in the background from a script.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def default_sigint():
    # As from a terminal, whatever the suite inherited: make test started in the background from a script
    # ignores SIGINT, and so would the program, which then waited out its ranks' 60 s instead of meeting
    # KeyboardInterrupt (72 s instead of 6 in such a run, and not the case the test names).
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(("how", "sigint_ignored", "fault", "ready"), [
    (signal.SIGKILL, True, "stuck-mid-training", "a rank is stuck\n"),
    (signal.SIGINT, False, "stuck-mid-training", "a rank is stuck\n"),
    (signal.SIGKILL, True, "parent-stuck", "the ranks are starting\n"),
], ids=["SIGKILL-while-training", "SIGINT-while-training", "SIGKILL-while-the-ranks-start"])
def test_no_rank_outlives_its_parent(tmp_path, how, sigint_ignored, fault, ready):
    """Only the parent gets the signal, as from kill(1), a job runner or subprocess.run's timeout.

    SIGKILL (SIGTERM and SIGHUP end Python the same way) leaves the kernel to signal the ranks;
    SIGINT raises KeyboardInterrupt in the parent, and main() kills the ranks on its way out. A
    parent killed while the ranks still import torch is noticed by each rank when it starts work.
    """
    process = start([sys.executable, ddp_driver(tmp_path, fault, timeout=60)], cwd=tmp_path,
                    preexec_fn=ignore_sigint if sigint_ignored else default_sigint)
    try:
        assert read_line(process, LIMIT) == ready, "the program did not get that far"
        process.send_signal(how)
        process.wait(timeout=LIMIT)
        # While they start, the ranks import torch: that can take 10 s on a busy machine.
        left = wait_for_group_to_end(process.pid, 5 if fault != "parent-stuck" else 30)
    finally:
        kill_group(process.pid)
        process.communicate(timeout=DRAIN_TIMEOUT)
    assert left == [], f"still running after the parent got {how.name}"


SPAWN_DRIVER = """\
import sys, time
sys.path.insert(0, {folder!r})
import spawn_workers as snippet

class StuckSquares(snippet.Squares):
    def __getitem__(self, index):
        time.sleep(600)

if __name__ == "__main__":
    snippet.TIMEOUT = 5
    snippet.Squares = StuckSquares
    snippet.main()
"""


def test_a_stuck_dataloader_worker_makes_the_spawn_program_fail_within_its_timeout(tmp_path):
    driver = tmp_path / "driver.py"
    driver.write_text(SPAWN_DRIVER.format(folder=str(SNIPPETS / "data")))
    result = run_bounded([sys.executable, driver], cwd=tmp_path, timeout=LIMIT)
    assert not result.timed_out, result.problems("spawn_workers.py with stuck workers")
    assert result.returncode == 1, result.stderr
    assert "RuntimeError: DataLoader timed out after 5 seconds" in result.stderr, result.stderr
    assert result.left_behind == []


def test_no_dataloader_worker_outlives_a_parent_killed_while_the_workers_start(tmp_path):
    """DataLoader's workers watch for the main process's death only once they wait for work."""
    process = start([sys.executable, SNIPPETS / "data" / "spawn_workers.py"], cwd=tmp_path, preexec_fn=ignore_sigint)
    try:
        deadline = time.monotonic() + LIMIT
        # the main process, multiprocessing's resource tracker and the two workers
        while len(members(process.pid)) < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(members(process.pid)) == 4, "the workers did not start"
        process.kill()
        process.wait(timeout=LIMIT)
        left = wait_for_group_to_end(process.pid, 30)  # they import torch first: seconds on a busy machine
    finally:
        kill_group(process.pid)
        process.communicate(timeout=DRAIN_TIMEOUT)
    assert left == [], "a worker outlived the main process"


TORCHRUN_DRIVER = """\
import datetime, os, sys, time
sys.path.insert(0, {folder!r})
import torchrun_train as snippet

snippet.TIMEOUT = datetime.timedelta(seconds=5)
device = snippet.setup()
if os.environ["RANK"] == "1":
    time.sleep(600)  # stuck before DDP: rank 0 waits for it in DDP's first broadcast
try:
    snippet.train(device)
finally:
    snippet.dist.destroy_process_group()
"""


def test_a_stuck_rank_makes_the_torchrun_program_fail_within_its_timeout(tmp_path):
    driver = tmp_path / "driver.py"
    driver.write_text(TORCHRUN_DRIVER.format(folder=str(SNIPPETS / "devices")))
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node=2", driver]
    # gloo on the CPU: with CUDA each of the two ranks would need a GPU of its own.
    result = run_bounded(command, cwd=tmp_path, timeout=LIMIT, env={**os.environ, "CUDA_VISIBLE_DEVICES": ""})
    assert not result.timed_out, result.problems("torchrun_train.py under torchrun with rank 1 stuck")
    assert result.returncode == 1, result.stderr
    assert "[rank0]: RuntimeError:" in result.stderr and "Timed out waiting 5000ms for" in result.stderr, result.stderr
    assert result.left_behind == []

