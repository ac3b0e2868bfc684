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

On a machine with a GPU, train.py trains on it, and the same tests check the GPU
run: the states then also hold the CUDA generator's (one per device), and that is
the generator dropout draws from, so it is the one whose loss must make the
resumed run diverge (the CPU generator is used only to initialize the model).
Without a GPU they check the CPU run, where dropout draws from the CPU generator.

The command-line tests at the end show that train.py rejects what it cannot do.
"""

import importlib.util
import sys

import pytest
import torch
from bounded_run import run_bounded
from conftest import ROOT

TRAIN = ROOT / "snippets" / "training" / "train.py"
EPOCHS, STOP = 6, 3
TIMEOUT = 120  # seconds for one run of train.py, which takes about 5 s
ON_GPU = torch.cuda.is_available()  # train.py, run from here, sees the same devices
GENERATORS = sorted(["torch", "loader"] + (["cuda"] if ON_GPU else []))


def train(*args, cwd) -> str:
    result = run_bounded([sys.executable, TRAIN, "--epochs", EPOCHS, *args], cwd=cwd, timeout=TIMEOUT)
    assert not result.problems("train.py"), "\n".join(result.problems("train.py"))
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
    assert sorted(full["rng"]) == GENERATORS
    assert full["optimizer"]["state"], "the optimizer has momentum buffers to compare"
    found, tensors = differences(full, resumed)
    assert found == []
    # 4 weights and biases, 4 momentum buffers, 2 RNG states (and one CUDA generator per GPU)
    assert tensors == 10 + (torch.cuda.device_count() if ON_GPU else 0)


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


@pytest.mark.parametrize("dropped", ["dropout", "loader"])
def test_resume_without_an_rng_state_diverges(runs, dropped):
    tmp, _ = runs
    checkpoint = torch.load(tmp / "checkpoint.pt", map_location="cpu")
    assert sorted(checkpoint["rng"]) == GENERATORS
    # As if the checkpoint had not saved this generator: the resumed run starts it from a fresh seed.
    if dropped == "dropout" and "cuda" in checkpoint["rng"]:
        del checkpoint["rng"]["cuda"]  # train.py then leaves it as torch.manual_seed(SEED) set it
    else:
        key = "torch" if dropped == "dropout" else "loader"
        checkpoint["rng"][key] = torch.Generator().manual_seed(0).get_state()
    broken = tmp / f"without-{dropped}.pt"
    torch.save(checkpoint, broken)
    train("--resume", broken, "--final-state", tmp / f"resumed-without-{dropped}.pt", cwd=tmp)
    full, resumed = torch.load(tmp / "full.pt"), torch.load(tmp / f"resumed-without-{dropped}.pt")
    found, _ = differences(full["model"], resumed["model"], "model")
    assert found, f"dropping the {dropped} RNG state should change the trained weights"


# The command line: what it cannot do, it rejects before training, with a message and exit status 2.

def load_train_module():
    spec = importlib.util.spec_from_file_location("train_snippet", TRAIN)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_main(monkeypatch, *args) -> int | None:
    """train.py's main() in this process, on a command line; the exit status it asks for (None: it returned)."""
    monkeypatch.setattr(sys, "argv", ["train.py", *map(str, args)])
    with torch.random.fork_rng(devices=[]):  # training here must not move this process's random state
        try:
            load_train_module().main()
        except SystemExit as exit:
            return exit.code
    return None


def test_stop_after_zero_is_rejected_on_the_real_command_line(tmp_path):
    """It used to run the three-run demo instead, and exit 0."""
    result = run_bounded([sys.executable, TRAIN, "--stop-after", "0", "--checkpoint", tmp_path / "c.pt"],
                         cwd=tmp_path, timeout=TIMEOUT)
    assert result.returncode == 2 and result.stdout == "", result.problems("train.py --stop-after 0")
    assert result.stderr.endswith("train.py: error: argument --stop-after: must be at least 1, not 0\n"), result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["--epochs", "0"], "argument --epochs: must be at least 1, not 0"),
    (["--stop-after", "7", "--checkpoint", "{tmp}/c.pt"],
     "--stop-after 7: the run trains epochs 1 to 6, so it would never save the checkpoint"),
    (["--stop-after", "6", "--epochs", "3", "--checkpoint", "{tmp}/c.pt"],
     "--stop-after 6: the run trains epochs 1 to 3, so it would never save the checkpoint"),
    (["--resume", "{checkpoint}", "--stop-after", "2", "--checkpoint", "{tmp}/c.pt"],
     "--stop-after 2: the run trains epochs 4 to 6, so it would never save the checkpoint"),
    (["--resume", "{checkpoint}", "--epochs", "2"],
     "--resume {checkpoint}: the checkpoint is after epoch 3, beyond --epochs 2"),
    (["--resume", "{tmp}/missing.pt"], "--resume {tmp}/missing.pt: no such file"),
    (["--stop-after", "3", "--checkpoint", "{tmp}/no/such/folder/c.pt"],
     "--checkpoint {tmp}/no/such/folder/c.pt: no such directory"),
    (["--final-state", "{tmp}/no/such/folder/f.pt"], "--final-state {tmp}/no/such/folder/f.pt: no such directory"),
    (["--stop-after", "3"], "--stop-after and --checkpoint go together"),
], ids=["epochs-0", "stop-after-beyond-the-end", "stop-after-beyond-epochs", "stop-after-before-the-checkpoint",
        "checkpoint-beyond-epochs", "missing-checkpoint", "checkpoint-folder-missing", "final-state-folder-missing",
        "stop-after-without-checkpoint"])
def test_the_command_line_rejects_what_the_run_cannot_do(runs, tmp_path, monkeypatch, capsys, args, message):
    names = {"tmp": tmp_path, "checkpoint": runs[0] / "checkpoint.pt"}
    monkeypatch.chdir(tmp_path)
    status = run_main(monkeypatch, *[a.format(**names) for a in args])
    out, err = capsys.readouterr()
    assert status == 2, f"exit status {status}, printed:\n{out}{err}"
    assert err.endswith(f"train.py: error: {message.format(**names)}\n"), err
    assert out == "" and list(tmp_path.iterdir()) == []


def test_epochs_alone_runs_one_training_of_that_length(tmp_path, monkeypatch, capsys):
    """It used to run the demo, of six epochs, three times."""
    monkeypatch.chdir(tmp_path)
    assert run_main(monkeypatch, "--epochs", "2") is None
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3, lines
    assert lines[0].startswith("epoch 1: lr 0.0500, loss ") and lines[1].startswith("epoch 2: lr 0.0500, loss ")
    assert lines[2].startswith("accuracy ")
