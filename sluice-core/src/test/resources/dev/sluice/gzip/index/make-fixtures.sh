#!/bin/sh
# Makes the indexed_gzip interop fixtures (Debian python3-indexed-gzip 1.7.0, gzip 1.12):
#   two-members.gz        two gzip -6 members (seeded text, 150000 + 90000 bytes)
#   two-members.gz.gzidx  indexed_gzip's export_index of it, spacing 65536
# GzipIndexInteropTest reads the index with Sluice and compares every range with a full decompression.
set -e
cd "$(dirname "$0")"
/usr/bin/python3 - <<'PY'
import random, subprocess
r = random.Random(14)
words = ["sluice", "gzip", "index", "window", "block", "member", "checkpoint", "zran", "the", "of"]
def text(n):
    s = []
    size = 0
    while size < n:
        w = r.choice(words) + ("\n" if r.random() < 0.1 else " ")
        s.append(w)
        size += len(w)
    return "".join(s)[:n].encode()
out = b""
for n in (150000, 90000):
    out += subprocess.run(["gzip", "-6", "-n"], input=text(n), capture_output=True, check=True).stdout
open("two-members.gz", "wb").write(out)
import indexed_gzip
f = indexed_gzip.IndexedGzipFile("two-members.gz", spacing=65536)
f.build_full_index()
f.export_index("two-members.gz.gzidx")
f.close()
PY
