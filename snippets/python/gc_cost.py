"""A full cycle collection costs time per LIVE tracked container, not per piece of garbage.

Prints only a qualitative verdict (with a wide margin), never the timings themselves.
"""

import gc
import time


def full_collection_seconds():
    """Best of 3 full collections, in seconds."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        gc.collect()
        best = min(best, time.perf_counter() - start)
    return best


# [cost]
gc.collect()
few_live = full_collection_seconds()               # almost nothing alive
live = [[i] for i in range(200_000)]               # 200k live lists, no garbage at all
many_live = full_collection_seconds()
found = gc.collect()
del live
print("garbage found with 200k live lists:", found)
print("full collection is much slower with many live objects:", many_live > 5 * few_live)
# [/cost]
