"""A DistributedDataParallel training script for torchrun that also runs on its own.

Launched by torchrun, every process reads RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR
and MASTER_PORT from the environment (init_method "env://"):

    torchrun --standalone --nproc-per-node=2 snippets/devices/torchrun_train.py

Run as a plain script (python snippets/devices/torchrun_train.py), it starts a
one-process group on 127.0.0.1 at a free port, so the same code is testable
anywhere. It uses NCCL and one GPU per process when CUDA is available, gloo on
the CPU otherwise. Only rank 0 prints; nothing is written to disk. A rank that
waits longer than TIMEOUT for another one fails instead of hanging.
"""

import datetime
import os
import socket

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler


# [setup]
TIMEOUT = datetime.timedelta(seconds=20)  # the longest one rank waits for another


def setup():
    if "RANK" in os.environ:  # started by torchrun: everything comes from the environment
        init_method, rank, world_size = "env://", int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
        local_rank = int(os.environ["LOCAL_RANK"])
    else:  # started as a plain script: a group of one process
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            init_method = f"tcp://127.0.0.1:{s.getsockname()[1]}"
        rank, world_size, local_rank = 0, 1, 0
    if torch.cuda.is_available():
        device = torch.device("cuda", local_rank)
        torch.cuda.set_device(device)
        backend = "nccl"
    else:
        device = torch.device("cpu")
        backend = "gloo"
    # timeout: the rendezvous or a collective that waits longer than this for another rank raises,
    # instead of waiting for the default (10 minutes with NCCL, 30 with gloo).
    dist.init_process_group(backend, init_method=init_method, rank=rank, world_size=world_size, timeout=TIMEOUT)
    return device
# [/setup]


# [train]
def train(device):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)).to(device)
    ddp_model = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)
    x = torch.randn(256, 4)
    dataset = TensorDataset(x, x.sum(dim=1, keepdim=True))
    sampler = DistributedSampler(dataset)  # rank and world size from the process group
    loader = DataLoader(dataset, batch_size=32, sampler=sampler)
    opt = torch.optim.SGD(ddp_model.parameters(), lr=0.05)
    losses = []
    for epoch in range(5):
        sampler.set_epoch(epoch)
        total = torch.zeros(2, device=device)  # sum of losses, number of batches
        for inputs, targets in loader:
            inputs, targets = inputs.to(device), targets.to(device)
            opt.zero_grad()
            loss = nn.functional.mse_loss(ddp_model(inputs), targets)
            loss.backward()
            opt.step()
            total += torch.stack([loss.detach(), torch.ones((), device=device)])
        dist.all_reduce(total)  # every rank gets the sums over all ranks
        losses.append((total[0] / total[1]).item())
    if dist.get_rank() == 0:
        print("world size:", dist.get_world_size())
        print("mean loss fell every epoch:", all(b < a for a, b in zip(losses, losses[1:])))
        state = model.state_dict()  # the unwrapped model: keys without the "module." prefix
        print("checkpoint keys:", list(state))
# [/train]


if __name__ == "__main__":
    device = setup()
    try:
        train(device)
    finally:
        dist.destroy_process_group()
