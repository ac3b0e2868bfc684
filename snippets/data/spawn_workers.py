"""DataLoader workers started with the spawn method (docs/data/workers.md).

Under spawn every worker is a fresh interpreter that imports this module and
unpickles the dataset and the collate function, so both must be defined at the
top level, and the program must be guarded by ``if __name__ == "__main__":``.
"""

# [spawn]
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class Squares(Dataset):
    def __len__(self):
        return 6

    def __getitem__(self, index):
        return torch.tensor([index * index, get_worker_info().id])


def stack_batch(batch):
    return torch.stack(batch)


def main():
    loader = DataLoader(Squares(), batch_size=2, num_workers=2,
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
