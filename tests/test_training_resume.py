"""Resuming snippets/training/train.py from a checkpoint reproduces the uninterrupted run bit for bit.

Three separate processes: one trains all epochs without a break; one stops after
epoch STOP and saves a checkpoint; a NEW process resumes from that checkpoint and
trains the remaining epochs. The final states of the first and the third run
(model weights, optimizer state, scheduler state, the global torch RNG and the
DataLoader's generator) must be identical: every tensor is compared with
``torch.equal``, every other value with ``==``.

The negative tests show that the comparison has teeth: a checkpoint whose RNG
states are replaced by those of a fresh start (what a checkpoint that never
saved them gives on resume) makes the resumed run diverge.
"""

import subprocess
import sys

import pytest
import torch
from conftest import ROOT

TRAIN = ROOT / "snippets" / "training" / "train.py"
EPOCHS, STOP = 6, 3


def train(*args, cwd) -> str:
    result = subprocess.run([sys.executable, str(TRAIN), "--epochs", str(EPOCHS), *map(str, args)],
                            cwd=cwd, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def differences(a, b, path="state") -> tuple[list[str], int]:
    """(paths where the nested states differ, number of tensors compared)."""
    if isinstance(a, torch.Tensor):
        same = (isinstance(b, torch.Tensor) and a.dtype == b.dtype and a.device == b.device
                and a.shape == b.shape and torch.equal(a, b))
        return ([] if same else [path]), 1
    if isinstance(a, dict):
        if not isinstance(b, dict) or a.keys() != b.keys():
            return [f"{path}: keys {sorted(map(str, a))} != {sorted(map(str, b)) if isinstance(b, dict) else b}"], 0
        found, count = [], 0
        for key in a:
            f, c = differences(a[key], b[key], f"{path}[{key!r}]")
            found, count = found + f, count + c
        return found, count
    if isinstance(a, (list, tuple)):
        if type(a) is not type(b) or len(a) != len(b):
            return [f"{path}: {a!r} != {b!r}"], 0
        found, count = [], 0
        for index, (x, y) in enumerate(zip(a, b)):
            f, c = differences(x, y, f"{path}[{index}]")
            found, count = found + f, count + c
        return found, count
    return ([] if type(a) is type(b) and a == b else [f"{path}: {a!r} != {b!r}"]), 0


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("resume")
    out = {
        "full": train("--final-state", tmp / "full.pt", cwd=tmp),
        "stopped": train("--stop-after", STOP, "--checkpoint", tmp / "checkpoint.pt", cwd=tmp),
        "resumed": train("--resume", tmp / "checkpoint.pt", "--final-state", tmp / "resumed.pt", cwd=tmp),
    }
    return tmp, out


def test_resumed_run_equals_the_uninterrupted_run(runs):
    tmp, _ = runs
    full, resumed = torch.load(tmp / "full.pt"), torch.load(tmp / "resumed.pt")
    assert sorted(full) == ["model", "optimizer", "rng", "scheduler"]
    assert sorted(full["rng"]) == ["loader", "torch"]
    assert full["optimizer"]["state"], "the optimizer has momentum buffers to compare"
    found, tensors = differences(full, resumed)
    assert found == []
    # 4 weights and biases, 4 momentum buffers, 2 RNG states
    assert tensors == 10


def test_resumed_run_continues_the_log_of_the_uninterrupted_run(runs):
    _, out = runs
    full = [line for line in out["full"].splitlines() if line.startswith("epoch")]
    stopped = [line for line in out["stopped"].splitlines() if line.startswith("epoch")]
    resumed = [line for line in out["resumed"].splitlines() if line.startswith("epoch")]
    assert len(full) == EPOCHS
    assert stopped == full[:STOP]
    assert resumed == full[STOP:]
    assert out["resumed"].splitlines()[-1] == out["full"].splitlines()[-1]  # the accuracy line


def test_checkpoint_holds_every_part_and_loads_with_weights_only(runs):
    tmp, _ = runs
    checkpoint = torch.load(tmp / "checkpoint.pt")  # weights_only=True, the default
    assert sorted(checkpoint) == ["epoch", "model", "optimizer", "rng", "scheduler"]
    assert checkpoint["epoch"] == STOP
    assert checkpoint["scheduler"]["last_epoch"] == STOP
    assert not (tmp / "checkpoint.pt.tmp").exists()


@pytest.mark.parametrize("dropped", ["torch", "loader"])
def test_resume_without_an_rng_state_diverges(runs, dropped):
    tmp, _ = runs
    checkpoint = torch.load(tmp / "checkpoint.pt")
    # As if the checkpoint had not saved this generator: the resumed run starts it from a fresh seed.
    checkpoint["rng"][dropped] = torch.Generator().manual_seed(0).get_state()
    broken = tmp / f"without-{dropped}.pt"
    torch.save(checkpoint, broken)
    train("--resume", broken, "--final-state", tmp / f"resumed-without-{dropped}.pt", cwd=tmp)
    full, resumed = torch.load(tmp / "full.pt"), torch.load(tmp / f"resumed-without-{dropped}.pt")
    found, _ = differences(full["model"], resumed["model"], "model")
    assert found, f"dropping the {dropped} RNG state should change the trained weights"
