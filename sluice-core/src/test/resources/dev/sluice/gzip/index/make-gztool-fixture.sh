#!/bin/sh
# Makes the gztool interop fixture (gztool 1.5.1, Python's zlib):
#   two-members-gztool.gz   two gzip members (levels 6 and 1) of seeded, mostly repeating lines, 1300000 + 1200000
#                           bytes, with a sync flush every 250000 bytes: block ends where gztool can put points
#                           (such data otherwise makes blocks of more than 1 MiB, gztool's smallest span)
#   two-members-gztool.gzi  gztool -x -s 1 -i of it: index version 1 ("gzipindX"), a point every 1 MiB
# GztoolIndexInteropTest reads the index with Sluice and compares every range with a full decompression.
set -e
cd "$(dirname "$0")"
/usr/bin/python3 - <<'PY'
import random, zlib
r = random.Random(23)
words = ["GET", "POST", "/index.html", "/api/v1/items", "200", "404", "sluice", "gztool", "member", "window"]
def text(n):
    s = []
    size = 0
    i = 0
    while size < n:
        line = "%s %s\n" % (words[i % 7], words[r.randrange(10)] if r.random() < 0.05 else "-")
        i += 1
        s.append(line)
        size += len(line)
    return "".join(s)[:n].encode()
out = b""
for n, level in ((1300000, 6), (1200000, 1)):
    data = text(n)
    z = zlib.compressobj(level, zlib.DEFLATED, 31)
    for at in range(0, n, 250000):
        out += z.compress(data[at:at + 250000]) + z.flush(zlib.Z_SYNC_FLUSH)
    out += z.flush()
open("two-members-gztool.gz", "wb").write(out)
PY
rm -f two-members-gztool.gzi
gztool -x -s 1 -I two-members-gztool.gzi -i two-members-gztool.gz
