"""The learning-rate schedules shown on the lr_scheduler pages, in one place.

Run as a script, it prints the learning rate of every epoch of every schedule
(tests/examples/test_snippets.py compares that with schedules.out). At build time the
plot directive on each page calls one of the plot_* functions below, so every
figure is drawn by running the same scheduler code; the doctest on the same
page prints the same sequence (tests/maths/test_lr_scheduler_plots.py checks it).
"""

import torch
from torch.optim import lr_scheduler

BASE_LR = 0.1

# The validation losses that drive ReduceLROnPlateau (one per epoch).
VAL_LOSSES = [1.0, 0.8, 0.7, 0.72, 0.71, 0.7, 0.65, 0.66, 0.65, 0.66, 0.66, 0.64]

# [schedules]
# name: (title, epochs, scheduler factory)
SCHEDULES = {
    "steplr": ("StepLR(step_size=3, gamma=0.5)", 10,
               lambda opt: lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)),
    "multisteplr": ("MultiStepLR(milestones=[3, 7], gamma=0.1)", 10,
                    lambda opt: lr_scheduler.MultiStepLR(opt, milestones=[3, 7], gamma=0.1)),
    "exponentiallr": ("ExponentialLR(gamma=0.8)", 10,
                      lambda opt: lr_scheduler.ExponentialLR(opt, gamma=0.8)),
    "cosineannealinglr": ("CosineAnnealingLR(T_max=5, eta_min=0.01)", 12,
                          lambda opt: lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.01)),
    "reducelronplateau": ("ReduceLROnPlateau(factor=0.5, patience=2)", len(VAL_LOSSES),
                          lambda opt: lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)),
    "linearlr": ("LinearLR(start_factor=0.25, total_iters=4)", 8,
                 lambda opt: lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4)),
    "sequentiallr": ("SequentialLR(LinearLR, CosineAnnealingLR, milestones=[3])", 10,
                     lambda opt: lr_scheduler.SequentialLR(
                         opt,
                         schedulers=[lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=3),
                                     lr_scheduler.CosineAnnealingLR(opt, T_max=7)],
                         milestones=[3])),
    "lambdalr": ("LambdaLR(min((epoch + 1) / 4, (12 - epoch) / 8))", 12,
                 lambda opt: lr_scheduler.LambdaLR(opt, lambda epoch: min((epoch + 1) / 4, (12 - epoch) / 8))),
    "chainedscheduler": ("ChainedScheduler([LinearLR, ExponentialLR(gamma=0.9)])", 10,
                         lambda opt: lr_scheduler.ChainedScheduler(
                             [lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=4),
                              lr_scheduler.ExponentialLR(opt, gamma=0.9)],
                             optimizer=opt)),
}
# [/schedules]


# [lr_sequence]
def lr_sequence(name):
    """The learning rate of every epoch: read before the epoch's updates, stepped after them."""
    _, epochs, make_scheduler = SCHEDULES[name]
    optimizer = torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=BASE_LR)
    scheduler = make_scheduler(optimizer)
    lrs = []
    for epoch in range(epochs):
        lrs.append(scheduler.get_last_lr()[0])
        optimizer.step()  # in real training: after loss.backward(), once per mini-batch
        if isinstance(scheduler, lr_scheduler.ReduceLROnPlateau):
            scheduler.step(VAL_LOSSES[epoch])
        else:
            scheduler.step()
    return lrs
# [/lr_sequence]


def plot(name):
    """Draw one schedule: the lr of each epoch, held constant until the next epoch."""
    import matplotlib.pyplot as plt

    title, epochs, _ = SCHEDULES[name]
    lrs = lr_sequence(name)
    # 4.8 inches (460 px) with 10 pt text: on a phone, where the figure is shown about 358 px wide, its
    # smallest text is still 10 px high.
    fig, ax = plt.subplots(figsize=(4.8, 2.7), layout="tight")
    ax.step([*range(epochs), epochs], [*lrs, lrs[-1]], where="post", color="C0")
    ax.plot(range(epochs), lrs, "o", color="C0")
    ax.set(xlabel="epoch", ylabel="lr", xlim=(-0.5, epochs), ylim=(0, BASE_LR * 1.1), xticks=range(epochs))
    fig.suptitle(title, fontsize=10.5)  # centred on the figure, where the longest fits; the axes are narrower
    ax.grid(alpha=0.3)
    if name == "reducelronplateau":
        metric = ax.twinx()
        metric.plot(range(epochs), VAL_LOSSES, "s--", color="C1", markersize=4)
        metric.set_ylabel("val_loss", color="C1")


def plot_steplr():
    plot("steplr")


def plot_multisteplr():
    plot("multisteplr")


def plot_exponentiallr():
    plot("exponentiallr")


def plot_cosineannealinglr():
    plot("cosineannealinglr")


def plot_reducelronplateau():
    plot("reducelronplateau")


def plot_linearlr():
    plot("linearlr")


def plot_sequentiallr():
    plot("sequentiallr")


def plot_lambdalr():
    plot("lambdalr")


def plot_chainedscheduler():
    plot("chainedscheduler")


if __name__ == "__main__":
    for name in SCHEDULES:
        print(f"{name}: {[round(lr, 4) for lr in lr_sequence(name)]}")
