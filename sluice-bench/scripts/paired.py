#!/usr/bin/env python3
"""Paired whole-process timing: the commands take turns, so slow phases of a noisy machine hit all of them alike.

Usage: python3 paired.py ROUNDS 'command one' 'command two' ...

Each command runs once as a warm-up, then ROUNDS times, in the given order on even rounds and reversed on odd ones.
Prints per command the mean, median and minimum wall time and the mean CPU time (user + system of the children),
then how often the first command beat each other one. Commands run through the shell, so redirections work.
"""
import resource
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    cmds = sys.argv[2:]
    wall = {c: [] for c in cmds}
    cpu = {c: [] for c in cmds}
    for c in cmds:
        subprocess.run(c, shell=True, check=True)
    for r in range(rounds):
        for c in cmds if r % 2 == 0 else reversed(cmds):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run(c, shell=True, check=True)
            t1 = time.perf_counter()
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall[c].append((t1 - t0) * 1000)
            cpu[c].append((after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000)
    for c in cmds:
        w = wall[c]
        print(f"{statistics.mean(w):8.1f} ms mean {statistics.median(w):8.1f} median {min(w):8.1f} min"
              f"  cpu {statistics.mean(cpu[c]):8.1f} ms  | {c}")
    for c in cmds[1:]:
        wins = sum(1 for a, b in zip(wall[cmds[0]], wall[c]) if a < b)
        print(f"first command faster than '{c}' in {wins}/{rounds} rounds")


if __name__ == "__main__":
    main()
