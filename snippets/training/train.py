"""A complete small training program: data, model, loss, optimizer, scheduler, checkpoints.

Run without arguments, it trains a small classifier on synthetic data three
times, in a temporary directory that it removes afterwards: once without a
break, once stopping after epoch 3 and saving a checkpoint, and once resuming
from that checkpoint. It checks that the resumed run ends exactly where the
uninterrupted run ended.

With arguments, it runs one training instead; the steps can then be run in
separate processes (tests/examples/test_training_resume.py does so), for example:

    python train.py --stop-after 3 --checkpoint ckpt.pt
    python train.py --resume ckpt.pt --final-state final.pt

Arguments it cannot honor (no epoch to train, a checkpoint it would never write)
are rejected with a message and exit status 2 before any training starts.
"""

import argparse
import os
import sys
import tempfile

import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

SEED = 0
EPOCHS = 6
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# [dataset]
class Blobs(Dataset):
    """Points in the plane scattered around one center per class.

    The data is generated from its own seed, so every process that builds the
    dataset gets the same samples without touching the global random state.
    """

    def __init__(self, num_samples=256, num_classes=3, seed=0):
        generator = torch.Generator().manual_seed(seed)
        centers = 1.5 * torch.randn(num_classes, 2, generator=generator)
        self.labels = torch.randint(num_classes, (num_samples,), generator=generator)
        self.points = centers[self.labels] + torch.randn(num_samples, 2, generator=generator)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, index):
        return self.points[index], self.labels[index]
# [/dataset]


# [model]
class Classifier(nn.Module):
    def __init__(self, num_classes=3, hidden=32, dropout=0.1):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(2, hidden),
            nn.ReLU(),
            nn.Dropout(dropout),  # draws from the global random number generator
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        return self.layers(x)
# [/model]


# [train-epoch]
def train_one_epoch(model, loader, loss_fn, optimizer):
    model.train()
    total_loss, total_samples = 0.0, 0
    for inputs, targets in loader:
        inputs, targets = inputs.to(device), targets.to(device)
        optimizer.zero_grad()
        loss = loss_fn(model(inputs), targets)
        loss.backward()
        optimizer.step()
        total_loss += loss.item() * len(targets)
        total_samples += len(targets)
    return total_loss / total_samples
# [/train-epoch]


@torch.no_grad()
def accuracy(model, dataset):
    model.eval()
    predictions = model(dataset.points.to(device)).argmax(dim=1)
    return (predictions == dataset.labels.to(device)).float().mean().item()


# [checkpoint-save]
def save_checkpoint(path, epoch, model, optimizer, scheduler, generator):
    checkpoint = {
        "epoch": epoch,  # the number of finished epochs
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),  # momentum buffers, param_groups
        "scheduler": scheduler.state_dict(),  # last_epoch, the current learning rate
        "rng": {
            "torch": torch.get_rng_state(),  # CPU generator: initialization, dropout
            "loader": generator.get_state(),  # the shuffling order of the next epochs
        },
    }
    if torch.cuda.is_available():
        checkpoint["rng"]["cuda"] = torch.cuda.get_rng_state_all()  # dropout on the GPU
    # Write to a temporary name first: an interrupted save never replaces a good checkpoint.
    torch.save(checkpoint, path + ".tmp")
    os.replace(path + ".tmp", path)
# [/checkpoint-save]


# [checkpoint-resume]
def load_checkpoint(path, model, optimizer, scheduler, generator):
    # weights_only=True (the default): the checkpoint holds only tensors and plain containers.
    checkpoint = torch.load(path, map_location="cpu")
    model.load_state_dict(checkpoint["model"])  # copies into the parameters, on their device
    optimizer.load_state_dict(checkpoint["optimizer"])  # moves the state to the parameters' device
    scheduler.load_state_dict(checkpoint["scheduler"])
    torch.set_rng_state(checkpoint["rng"]["torch"])
    generator.set_state(checkpoint["rng"]["loader"])
    if "cuda" in checkpoint["rng"] and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(checkpoint["rng"]["cuda"])
    return checkpoint["epoch"]  # the epoch to continue with
# [/checkpoint-resume]


def final_state(model, optimizer, scheduler, generator):
    """Everything that must match between an uninterrupted and a resumed run."""
    state = {
        "model": model.state_dict(),
        "optimizer": optimizer.state_dict(),
        "scheduler": scheduler.state_dict(),
        "rng": {"torch": torch.get_rng_state(), "loader": generator.get_state()},
    }
    if torch.cuda.is_available():
        state["rng"]["cuda"] = torch.cuda.get_rng_state_all()  # what dropout draws from on the GPU
    return state


def run(epochs=EPOCHS, stop_after=None, checkpoint=None, resume=None):
    torch.manual_seed(SEED)
    dataset = Blobs(seed=SEED)

    # [dataloader]
    generator = torch.Generator().manual_seed(SEED)  # owns the shuffling order
    loader = DataLoader(dataset, batch_size=32, shuffle=True, generator=generator)
    # [/dataloader]

    model = Classifier().to(device)
    loss_fn = nn.CrossEntropyLoss()

    # [optimizer]
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
    # [/optimizer]

    # [scheduler]
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    # [/scheduler]

    start = 0
    if resume is not None:
        start = load_checkpoint(resume, model, optimizer, scheduler, generator)
    for epoch in range(start, epochs):
        lr = scheduler.get_last_lr()[0]
        loss = train_one_epoch(model, loader, loss_fn, optimizer)
        scheduler.step()  # once per epoch, after the optimizer steps
        print(f"epoch {epoch + 1}: lr {lr:.4f}, loss {loss:.3f}")
        if epoch + 1 == stop_after:
            save_checkpoint(checkpoint, epoch + 1, model, optimizer, scheduler, generator)
            print(f"checkpoint saved after epoch {epoch + 1}")
            break
    state = final_state(model, optimizer, scheduler, generator)
    print(f"accuracy {accuracy(model, dataset):.3f}")
    return state


def equal(a, b):
    """True if two nested states hold the same values; tensors are compared with torch.equal."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.dtype == b.dtype and torch.equal(a, b.to(a.device))
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(map(equal, a, b))
    return a == b


def demo():
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "checkpoint.pt")
        print("uninterrupted run")
        uninterrupted = run()
        print("interrupted run")
        run(stop_after=3, checkpoint=path)
        print("resumed run")
        resumed = run(resume=path)
    assert equal(uninterrupted, resumed), "the resumed run differs from the uninterrupted run"
    print("resumed run equals uninterrupted run:", equal(uninterrupted, resumed))


def positive(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def check_arguments(parser, args):
    """Reject what the run could not do, before it trains anything."""
    if (args.stop_after is None) != (args.checkpoint is None):
        parser.error("--stop-after and --checkpoint go together")
    start = 0
    if args.resume is not None:
        if not os.path.isfile(args.resume):
            parser.error(f"--resume {args.resume}: no such file")
        start = torch.load(args.resume, map_location="cpu")["epoch"]
        if start > args.epochs:
            parser.error(f"--resume {args.resume}: the checkpoint is after epoch {start},"
                         f" beyond --epochs {args.epochs}")
    if args.stop_after is not None and not start < args.stop_after <= args.epochs:
        parser.error(f"--stop-after {args.stop_after}: the run trains epochs {start + 1} to {args.epochs},"
                     " so it would never save the checkpoint")
    for option, path in [("--checkpoint", args.checkpoint), ("--final-state", args.final_state)]:
        if path is not None and not os.path.isdir(os.path.dirname(os.path.abspath(path))):
            parser.error(f"{option} {path}: no such directory")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epochs", type=positive, default=EPOCHS, help=f"the number of epochs (default {EPOCHS})")
    parser.add_argument("--stop-after", type=positive, metavar="EPOCH",
                        help="save a checkpoint after this epoch and stop")
    parser.add_argument("--checkpoint", help="where --stop-after saves the checkpoint")
    parser.add_argument("--resume", metavar="CHECKPOINT", help="continue from this checkpoint")
    parser.add_argument("--final-state", help="save the state at the end of the run here")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    if not argv:
        demo()
        return
    check_arguments(parser, args)
    state = run(args.epochs, args.stop_after, args.checkpoint, args.resume)
    if args.final_state:
        torch.save(state, args.final_state)


if __name__ == "__main__":
    main()
