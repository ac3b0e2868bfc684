"""Threads, processes and the GIL, measured.

Each check prints one qualitative verdict on stdout (gil_demo.out holds exactly
these lines). The verdicts are chosen so that they hold on a loaded 2-core
machine: they rest on what the GIL guarantees, not on how many cores are free.
The measured numbers (wall times, speed-ups) depend on the machine and its
load; they go to stderr:

    python snippets/python/gil_demo.py            # verdicts and numbers
    python snippets/python/gil_demo.py 2>/dev/null  # verdicts only
"""

import multiprocessing as mp
import sys
import threading
import time


def note(message):
    """Measured numbers: machine-dependent, so stderr only."""
    print("  [measured] " + message, file=sys.stderr)


def spin(n):
    """Pure-Python, CPU-bound work. Returns the CPU time the calling thread used."""
    start = time.thread_time()
    total = 0
    for i in range(n):
        total += i
    return time.thread_time() - start


def run_in_threads(target, args_list):
    """Run target(*args) in one thread per args; return (wall seconds, results)."""
    results = [None] * len(args_list)

    def call(i, args):
        results[i] = target(*args)

    threads = [threading.Thread(target=call, args=(i, args)) for i, args in enumerate(args_list)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - start, results


# [cpu-threads]
def cpu_bound_threads(n=2_000_000):
    start = time.perf_counter()
    spin(n)
    spin(n)
    serial = time.perf_counter() - start
    wall, cpu_times = run_in_threads(spin, [(n,), (n,)])
    cores_busy = sum(cpu_times) / wall  # average number of cores running our threads
    note(f"pure Python, serial {serial:.2f} s, 2 threads {wall:.2f} s, {cores_busy:.2f} cores busy")
    # The GIL lets only one thread run bytecode: the threads' CPU time cannot exceed the wall time.
    print("pure-Python work in 2 threads: never more than one core busy:", cores_busy < 1.25)
# [/cpu-threads]


# [processes]
def finish_and_flag(flag, n):
    spin(n)
    flag.value = 1


def process_has_its_own_gil(n=200_000):
    ctx = mp.get_context("spawn")  # a fresh interpreter: this module is imported again in the child
    flag = ctx.RawValue("i", 0)  # shared memory without a lock: reading it never releases the GIL
    child = ctx.Process(target=finish_and_flag, args=(flag, n))
    child.start()
    deadline = time.monotonic() + 120
    while flag.value == 0 and time.monotonic() < deadline:
        pass  # busy loop: this process keeps its own GIL the whole time
    child.join()
    print("a spawned process ran Python code while the parent held its GIL:", flag.value == 1)


def cpu_bound_processes(n=2_000_000):
    ctx = mp.get_context("spawn")
    start = time.perf_counter()
    spin(n)
    spin(n)
    serial = time.perf_counter() - start
    with ctx.Pool(2) as pool:
        pool.map(spin, [1, 1])  # start both workers before timing
        start = time.perf_counter()
        pool.map(spin, [n, n])
        parallel = time.perf_counter() - start
    note(f"pure Python, serial {serial:.2f} s, 2 processes {parallel:.2f} s, speed-up {serial / parallel:.2f}x")
# [/processes]


# [io-threads]
def io_bound_threads(seconds=0.2, count=4):
    wall, _ = run_in_threads(time.sleep, [(seconds,)] * count)
    note(f"{count} sleeps of {seconds} s in {count} threads: {wall:.2f} s (serial sum {seconds * count:.1f} s)")
    # time.sleep (like reading a file or a socket) releases the GIL while it waits.
    print("waiting in 4 threads overlaps (well under the serial sum):", wall < 0.75 * seconds * count)
# [/io-threads]


# [torch-threads]
def torch_op_releases_gil(size=1200, attempts=5):
    import torch

    torch.set_num_threads(1)  # one intra-op thread, so that Python threads are what we measure
    a = torch.randn(size, size)
    events = []

    def worker():
        events.append("op start")
        torch.mm(a, a)  # C++ kernel; the Python binding releases the GIL around it
        events.append("op end")

    old = sys.getswitchinterval()
    sys.setswitchinterval(100.0)  # no forced switches: the GIL changes hands only when released
    try:
        for _ in range(attempts):
            events.clear()
            t = threading.Thread(target=worker)
            t.start()  # returns once the worker runs; this thread then waits for the GIL
            events.append("main thread ran")
            t.join()
            if events == ["op start", "main thread ran", "op end"]:
                break
    finally:
        sys.setswitchinterval(old)
    print("the main thread ran Python code while torch.mm ran in a thread:",
          events == ["op start", "main thread ran", "op end"])

    start = time.perf_counter()
    torch.mm(a, a)
    torch.mm(a, a)
    serial = time.perf_counter() - start
    wall, _ = run_in_threads(torch.mm, [(a, a), (a, a)])
    note(f"torch.mm {size}x{size}, serial {serial:.2f} s, 2 threads {wall:.2f} s, speed-up {serial / wall:.2f}x")
# [/torch-threads]


def main():
    cpu_bound_threads()
    process_has_its_own_gil()
    cpu_bound_processes()
    io_bound_threads()
    torch_op_releases_gil()


if __name__ == "__main__":
    main()
