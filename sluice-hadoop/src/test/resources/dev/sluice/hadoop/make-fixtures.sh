#!/usr/bin/env bash
# Makes the plain-gzip fixtures of IndexSplitTest with real tools: one-member gzip files whose DEFLATE blocks (and so
# the checkpoints a GzipIndex can have) come from gzip and pigz themselves. The text has LF, CR LF and CR line ends;
# the tests take the expected lines from the JDK's GZIPInputStream. Needs gzip, pigz, python3. Rerun: bash make-fixtures.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -f -- *.gz
python3 - <<'PY'
import random
r = random.Random(2111)
words = "alpha beta gamma delta split index checkpoint window hadoop spark record line reader gzip pigz".split()
ends = ["\n"] * 6 + ["\r\n"] * 2 + ["\r"]
out, n = [], 0
while n < 250000:
    l = " ".join(r.choice(words) for _ in range(r.randint(0, 12))) + " " + str(r.randint(0, 10**9)) + r.choice(ends)
    out.append(l)
    n += len(l)
open("lines.txt", "w", newline="").write("".join(out))
PY
gzip -6 --rsyncable -n -c lines.txt > gzip-rsyncable.gz   # a block every few KiB: many checkpoints
pigz -6 -b 32 -n -c lines.txt > pigz-b32.gz               # 32 KiB blocks joined by sync flushes
head -c 100000 lines.txt | gzip -6 -n > gzip-6.gz         # gzip's own blocks: few checkpoints
rm lines.txt
