"""Global state every doctest group starts from.

The doctest builder runs all pages in one process, so whatever one group
changes (a seed, print options, the default dtype, grad mode) would leak into
the next. ``conf.py``'s ``doctest_global_setup`` calls
:func:`reset_global_state` at the start of every group, which makes each group
independent of which pages ran before it.
"""

import gc
import random

import numpy as np
import torch

SEED = 0
_NUMPY_PRINT_DEFAULTS = np.get_printoptions()


def freeze_what_is_there() -> None:
    """Leave every object alive now out of the cyclic collector's walks (gc.freeze).

    The examples run inside Sphinx, whose environment is millions of objects a reader's interpreter
    does not have, and the groups before them leave modules and caches behind. Each full collection
    an example makes (the gc page makes 15) walked all of them: 3.2 s of the English doctest build.
    Frozen at the start of each group, after one collection of what earlier groups left as garbage,
    they are left out, as they would not be there in a fresh interpreter; what the group creates
    is collected as before. After the first time, that collection walks only what is new."""
    gc.collect()
    gc.freeze()


def reset_global_state(seed: int = SEED) -> None:
    freeze_what_is_there()
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)
    torch.set_printoptions(profile="default", sci_mode=None)
    np.set_printoptions(**_NUMPY_PRINT_DEFAULTS)
    torch.set_default_dtype(torch.float32)
    torch.set_default_device(None)  # devices/accelerator changes it; a failed example would leave it set
    torch.set_warn_always(False)  # tensors/indexing turns it on to show a once-per-process warning
    torch.set_grad_enabled(True)
    # Only when changed: use_deterministic_algorithms() costs ~50 ms a call even as a no-op.
    if torch.is_anomaly_enabled():
        torch.autograd.set_detect_anomaly(False)
    if torch.are_deterministic_algorithms_enabled():
        torch.use_deterministic_algorithms(False)
