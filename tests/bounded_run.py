"""Run a command so that it fails in bounded time and leaves no process behind.

The command starts a session of its own, so every process it starts (spawned ranks,
DataLoader workers, multiprocessing's resource tracker) belongs to one process group.
At the time limit the whole group is killed and the output so far is kept. When the
command has exited, a process that is still running LINGER seconds later is reported
as left behind, then killed: a member of its group, or any process that still holds
its output open (torchrun, for one, starts each worker in a session of its own).
Linux only: both are found in /proc.
"""

import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

LINGER = 5.0  # seconds a process may outlive the command it was started by


@dataclass
class Finished:
    """One finished command; returncode is negative for a signal (-9 when killed at the limit)."""

    command: str
    returncode: int
    stdout: str
    stderr: str
    seconds: float  # until the command exited or was killed
    timed_out: bool
    left_behind: list[str]  # "pid command line" of each process that outlived the command

    def problems(self, name: str) -> list[str]:
        """What went wrong, one message each, with the output that explains it."""
        found = []
        if self.timed_out:
            found.append(f"{name}: still running after {self.seconds:.0f} s, killed with its process group;"
                         f" output so far:\n{self.stdout}{self.stderr}")
        elif self.returncode != 0:
            found.append(f"{name}: exited {self.returncode} after {self.seconds:.1f} s:\n{self.stderr}")
        if self.left_behind:
            found.append(f"{name}: left processes running after it exited: {self.left_behind}")
        return found


def members(group: int) -> dict[int, str]:
    """The live (not zombie) processes of a process group: pid -> command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:  # it ended while we looked
            continue
        state, _ppid, pgrp = stat[stat.rindex(")") + 2:].split()[:3]
        if int(pgrp) == group and state != "Z":
            found[int(entry.name)] = command
    return found


def running(pid: int) -> bool:
    """True while the process exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def holders(pipe) -> dict[int, str]:
    """The processes other than this one that have `pipe` (a file object on a pipe) open: pid -> command line."""
    target = f"pipe:[{os.fstat(pipe.fileno()).st_ino}]"
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if any(os.readlink(fd) == target for fd in (entry / "fd").iterdir()):
                found[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:  # it ended, or is not ours to look at
            continue
    return found


def kill_group(group: int) -> None:
    try:
        os.killpg(group, signal.SIGKILL)
    except ProcessLookupError:
        pass


def wait_for_group_to_end(group: int, seconds: float = LINGER) -> list[str]:
    """Wait until no process of the group runs; return those still running after `seconds`, then kill them."""
    deadline = time.monotonic() + seconds
    while (left := members(group)) and time.monotonic() < deadline:
        time.sleep(0.1)
    if left:
        kill_group(group)
    return [f"{pid} {command}" for pid, command in sorted(left.items())]


def start(args: list[str], **popen_options) -> subprocess.Popen:
    """Start a command as the leader of a new session: its process group id is its pid.

    Output is captured as text; stderr=subprocess.STDOUT merges the two streams.
    """
    options = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, "text": True, **popen_options}
    return subprocess.Popen([str(a) for a in args], start_new_session=True, **options)


def read_line(process: subprocess.Popen, seconds: float) -> str:
    """The next line of the process's output, or '' if none comes within `seconds`."""
    ready, _, _ = select.select([process.stdout], [], [], seconds)
    return process.stdout.readline() if ready else ""


def run_bounded(args: list, *, timeout: float, **popen_options) -> Finished:
    """Run a command with a time limit; kill its whole process group at the limit or when it leaves one behind."""
    began = time.monotonic()
    process = start(args, **popen_options)
    group, timed_out, ended, looked, left_behind = process.pid, False, None, None, []
    pipes = [pipe for pipe in (process.stdout, process.stderr) if pipe is not None]
    while True:
        try:
            stdout, stderr = process.communicate(timeout=0.2)  # retrying loses no output
            break
        except subprocess.TimeoutExpired:
            now = time.monotonic()
            if process.poll() is None:
                if now - began > timeout and not timed_out:
                    timed_out = True
                    kill_group(group)
            elif ended is None:
                ended = looked = now
            elif now - looked > LINGER:
                # It has exited, but processes it started still run and hold its output open.
                stray = members(group)
                for pipe in pipes:
                    stray.update(holders(pipe))
                left_behind += [f"{pid} {command}" for pid, command in sorted(stray.items())]
                kill_group(group)
                for pid in stray:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                looked = now  # and look again after another LINGER if the output is still open
    seconds = (ended or time.monotonic()) - began
    left_behind += wait_for_group_to_end(group)
    return Finished(" ".join(map(str, args)), process.returncode, stdout, stderr or "", seconds, timed_out,
                    left_behind)
