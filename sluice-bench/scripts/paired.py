#!/usr/bin/env python3
"""Paired whole-process timing: the commands take turns, so slow phases of a noisy machine hit all of them alike.

Usage: python3 paired.py ROUNDS 'command one' 'command two' ...

Each command runs once as a warm-up, then ROUNDS times, in the given order on even rounds and reversed on odd ones.
Prints per command the mean, median and minimum wall time, the mean CPU time (user + system), its median user and
system time and its median peak RSS, then how often the first command beat each other one. Commands run through
the shell, so redirections work; the figures are the command's own where the shell execs it (a simple command, with
redirections or behind `env`, as bash and dash do), else the shell's and everything it waited for (CPU) or the
shell's own (RSS). The peak RSS is a high-water mark that starts at this script's own size, copied at the fork
(~14 MB): a command smaller than that shows that size.
"""
import os
import statistics
import subprocess
import sys
import time


def timed(c):
    """Runs c through the shell; returns (wall s, user s, system s, peak RSS KiB) from wait4, raising on failure."""
    t0 = time.perf_counter()
    p = subprocess.Popen(c, shell=True)
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise subprocess.CalledProcessError(p.returncode, c)
    return t1 - t0, ru.ru_utime, ru.ru_stime, ru.ru_maxrss


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    cmds = sys.argv[2:]
    wall = {c: [] for c in cmds}
    cpu = {c: [] for c in cmds}
    user = {c: [] for c in cmds}
    system = {c: [] for c in cmds}
    rss = {c: [] for c in cmds}
    for c in cmds:
        timed(c)
    for r in range(rounds):
        for c in cmds if r % 2 == 0 else reversed(cmds):
            w, u, s, m = timed(c)
            wall[c].append(w * 1000)
            cpu[c].append((u + s) * 1000)
            user[c].append(u * 1000)
            system[c].append(s * 1000)
            rss[c].append(m / 1024)
    for c in cmds:
        w = wall[c]
        print(f"{statistics.mean(w):8.1f} ms mean {statistics.median(w):8.1f} median {min(w):8.1f} min"
              f"  cpu {statistics.mean(cpu[c]):8.1f} ms (median user {statistics.median(user[c]):7.1f},"
              f" sys {statistics.median(system[c]):6.1f})  rss {statistics.median(rss[c]):6.0f} MB  | {c}")
    for c in cmds[1:]:
        wins = sum(1 for a, b in zip(wall[cmds[0]], wall[c]) if a < b)
        print(f"first command faster than '{c}' in {wins}/{rounds} rounds")


if __name__ == "__main__":
    main()
