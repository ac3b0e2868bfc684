"""DistributedDataParallel on the CPU: two processes equal one process on the full batch.

Two local processes (torch.multiprocessing.spawn) join a gloo process group on
127.0.0.1 at a free port chosen at run time, train a small float64 model with a
DistributedSampler, and send their final parameters back to the parent. The parent
trains the same model in a single process on the full (global) batches and checks
that both ranks end with identical parameters that also equal the single-process
result. Nothing is written to disk.

It fails in seconds rather than hanging: a rank that waits longer than TIMEOUT for
another one (in the rendezvous or in a collective) raises, mp.spawn then stops the
other ranks and re-raises in the parent, and the parent gives up on ranks that do not
finish within RUN_TIMEOUT. No rank outlives the parent, however the parent ends: an
exception or Ctrl-C kills the ranks on the way out of main(), and a parent killed by a
signal has the kernel send each rank a SIGINT, whose default action ends it.

Run: python snippets/devices/ddp_equivalence.py
"""

import datetime
import os
import signal
import socket
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

WORLD_SIZE = 2
LOCAL_BATCH = 4  # per process; the global batch is WORLD_SIZE * LOCAL_BATCH
EPOCHS = 2
LR = 0.1


# [data-and-model]
def make_dataset():
    g = torch.Generator().manual_seed(1234)
    x = torch.randn(32, 4, generator=g, dtype=torch.float64)
    y = x @ torch.tensor([[1.0], [-2.0], [0.5], [3.0]], dtype=torch.float64) + 0.1
    return TensorDataset(x, y)


def make_model(seed):
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1)).to(torch.float64)
# [/data-and-model]


# [free-port]
def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))  # port 0: the OS picks a free port
        return s.getsockname()[1]
# [/free-port]


# [worker]
TIMEOUT = datetime.timedelta(seconds=20)  # the longest one rank waits for another


def worker(rank, world_size, port, results):
    # mp.spawn has the kernel send SIGINT to each rank when the parent dies. A program started in
    # the background by a script inherits SIGINT ignored, and the rank would outlive the parent:
    # restore the default action, which ends the process even inside a collective.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if not mp.parent_process().is_alive():  # it died while this rank started, before the kernel could tell
        return
    os.environ["MASTER_ADDR"] = "127.0.0.1"
    os.environ["MASTER_PORT"] = str(port)
    # timeout: the rendezvous or a collective that waits longer than this for another rank raises,
    # instead of waiting for gloo's default of 30 minutes.
    dist.init_process_group("gloo", rank=rank, world_size=world_size, timeout=TIMEOUT)
    try:
        # Each rank starts from a different random model on purpose:
        # DDP broadcasts rank 0's parameters and buffers when it is constructed.
        model = DDP(make_model(seed=rank))  # CPU: no device_ids
        dataset = make_dataset()
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=rank, shuffle=True, seed=0)
        loader = DataLoader(dataset, batch_size=LOCAL_BATCH, sampler=sampler)
        opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
        loss_fn = nn.MSELoss()  # mean over the local batch
        for epoch in range(EPOCHS):
            sampler.set_epoch(epoch)  # a different shuffle every epoch, the same on every rank
            for x, y in loader:
                opt.zero_grad()
                loss_fn(model(x), y).backward()  # backward all-reduces (averages) the gradients
                opt.step()
        params = nn.utils.parameters_to_vector(model.module.parameters())
        results.put((rank, len(sampler), params.tolist()))  # plain floats: no shared memory
        # Both ranks reach here before either tears the group down: a rank that destroys its
        # gloo context while the other is still talking to it makes that one abort at exit.
        dist.barrier()
    finally:
        dist.destroy_process_group()
    # Leave without the interpreter's finalization: gloo's threads may still hold objects whose
    # destruction then aborts the rank (SIGABRT, "terminate called without an active exception";
    # seen about once in 60 runs). The result is already in the queue.
    os._exit(0)
# [/worker]


# [single-process]
def single_process_run():
    model = make_model(seed=0)
    dataset = make_dataset()
    # num_replicas=1 gives the same permutation per epoch as the two ranks share,
    # and a batch of WORLD_SIZE * LOCAL_BATCH is the union of their local batches.
    sampler = DistributedSampler(dataset, num_replicas=1, rank=0, shuffle=True, seed=0)
    loader = DataLoader(dataset, batch_size=WORLD_SIZE * LOCAL_BATCH, sampler=sampler)
    opt = torch.optim.SGD(model.parameters(), lr=LR, momentum=0.9)
    loss_fn = nn.MSELoss()
    for epoch in range(EPOCHS):
        sampler.set_epoch(epoch)
        for x, y in loader:
            opt.zero_grad()
            loss_fn(model(x), y).backward()
            opt.step()
    return nn.utils.parameters_to_vector(model.parameters()).detach()
# [/single-process]


# [main]
RUN_TIMEOUT = 120  # seconds for the whole run, which normally takes a few


def main():
    ctx = mp.get_context("spawn")
    results = ctx.SimpleQueue()
    workers = mp.spawn(worker, args=(WORLD_SIZE, free_port(), results), nprocs=WORLD_SIZE, join=False)
    try:
        reference = single_process_run()  # meanwhile, in the parent
        deadline = time.monotonic() + RUN_TIMEOUT
        while not workers.join(timeout=1):  # re-raises the exception of a failed worker
            if time.monotonic() > deadline:
                raise TimeoutError(f"the ranks did not finish within {RUN_TIMEOUT} s")
    finally:  # however main is left (an error, Ctrl-C), no rank keeps running
        for process in workers.processes:
            if process.is_alive():
                process.kill()
    samples, params = {}, {}
    for _ in range(WORLD_SIZE):  # the ranks may have finished in any order
        if results.empty():  # every rank has exited: a missing result would never come
            raise RuntimeError("a rank exited without sending its parameters")
        rank, n, p = results.get()
        samples[rank], params[rank] = n, torch.tensor(p, dtype=torch.float64)

    p0, p1 = params[0], params[1]
    identical = torch.equal(p0, p1)
    # float64 and mean losses: DDP's averaged gradients equal the full-batch gradients up to
    # rounding in the order of summation, so the tolerance can be tiny.
    matches = torch.allclose(p0, reference, rtol=0, atol=1e-12)
    moved = not torch.allclose(reference, nn.utils.parameters_to_vector(make_model(0).parameters()))
    print("samples per rank per epoch:", [samples[r] for r in range(WORLD_SIZE)])
    print("parameters trained:", moved)
    print("rank 0 and rank 1 identical:", identical)
    print("DDP equals single process on the full batch:", matches)
    assert identical and matches and moved
    print("verdict: OK")


if __name__ == "__main__":
    main()
# [/main]
