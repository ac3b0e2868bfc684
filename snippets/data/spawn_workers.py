"""DataLoader workers started with the spawn method (docs/data/workers.md).

Under spawn every worker is a fresh interpreter that imports this module and
unpickles the dataset, the collate function and the worker_init_fn, so they must
be defined at the top level, and the program must be guarded by
``if __name__ == "__main__":``. A stuck worker makes the loop fail after TIMEOUT
seconds, and no worker outlives the main process.
"""

# [spawn]
import multiprocessing
import sys

import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info

TIMEOUT = 30  # seconds to wait for a batch: a stuck worker raises RuntimeError instead of hanging


class Squares(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, index):
        return torch.tensor([index * index, get_worker_info().id])


def stack_batch(batch):
    return torch.stack(batch)


def exit_if_orphaned(worker_id):
    # A worker notices that the main process died only if it was already waiting for work then;
    # one that was still starting would wait forever. worker_init_fn runs in the worker at start.
    if not multiprocessing.parent_process().is_alive():
        sys.exit(0)


def main():
    loader = DataLoader(Squares(), batch_size=2, num_workers=2, timeout=TIMEOUT, worker_init_fn=exit_if_orphaned,
                        multiprocessing_context="spawn", collate_fn=stack_batch)
    for batch in loader:
        print("squares", batch[:, 0].tolist(), "from worker", batch[0, 1].item())

    local = DataLoader(Squares(), batch_size=2, num_workers=2,
                       multiprocessing_context="spawn", collate_fn=lambda batch: torch.stack(batch))
    try:
        next(iter(local))
    except AttributeError as error:
        print(type(error).__name__ + ":", error)


if __name__ == "__main__":
    main()
# [/spawn]
