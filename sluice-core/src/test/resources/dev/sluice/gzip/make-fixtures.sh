#!/usr/bin/env bash
# Makes the gzip interop fixtures in this directory with real tools, and MANIFEST: for each .gz file the SHA-256 and
# size of what `gzip -dc` prints, and gzip's exit code (0 ok, 2 warning such as trailing garbage).
# Needs gzip, pigz, igzip (isal), libdeflate-gzip (libdeflate-tools), bgzip (tabix) and python3. Rerun: bash make-fixtures.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
rm -f -- *.gz MANIFEST text.txt random.bin empty.bin

# Inputs: deterministic so that the fixtures are reproducible.
python3 - <<'PY'
import random
r = random.Random(20261122)
words = "the quick brown fox jumps over lazy dog gzip deflate member header trailer crc isize buffer stream".split()
lines = []
while sum(len(l) + 1 for l in lines) < 48000:
    lines.append(" ".join(r.choice(words) for _ in range(r.randint(3, 14))))
open("text.txt", "w").write("\n".join(lines) + "\n")
# Half random, half repeats: exercises literals, matches and long distances.
b = bytearray(r.getrandbits(8) for _ in range(20000))
b += b[:15000] * 2
open("random.bin", "wb").write(bytes(b))
open("empty.bin", "wb").close()
PY

gzip -1 -c text.txt > gzip-1.gz
gzip -6 -c text.txt > gzip-6.gz
gzip -9 -c random.bin > gzip-9-binary.gz
gzip -n -c empty.bin > empty-member.gz
pigz -6 -c text.txt > pigz-6.gz
pigz -b 32 -p 2 -c random.bin > pigz-blocks.gz          # several 32 KiB blocks joined with sync flushes
igzip -1 -c text.txt > igzip-1.gz
igzip -3 -c random.bin > igzip-3.gz
libdeflate-gzip -6 -c text.txt > libdeflate-6.gz
libdeflate-gzip -12 -c random.bin > libdeflate-12.gz
# BGZF from htslib's bgzip (Debian: tabix): one block each, then three blocks with its EOF block, then BGZF followed
# by a plain member (a reader must hand over from indexed to ordinary members).
bgzip -c text.txt > bgzip-text.gz
cat text.txt random.bin text.txt > bgzip.in && bgzip -c bgzip.in > bgzip-three-blocks.gz && rm bgzip.in
cat bgzip-text.gz gzip-6.gz > bgzip-then-plain.gz
cat gzip-1.gz pigz-blocks.gz > two-members.gz
cat gzip-6.gz empty-member.gz igzip-1.gz > three-members-one-empty.gz
{ cat gzip-6.gz; head -c 1000 /dev/zero; } > trailing-zeros.gz
{ cat gzip-6.gz; printf 'garbage\n'; } > trailing-garbage.gz

python3 - <<'PY'
import gzip, struct, zlib
text = open("text.txt", "rb").read()
binary = open("random.bin", "rb").read()

def raw(data, level=6):
    c = zlib.compressobj(level, zlib.DEFLATED, -15)
    return c.compress(data) + c.flush()

def member(data, flags=0, extra=None, name=None, comment=None, hcrc=False, level=6, mtime=1700000000, os_=3):
    flg = flags | (4 if extra is not None else 0) | (8 if name is not None else 0) \
        | (16 if comment is not None else 0) | (2 if hcrc else 0)
    h = b"\x1f\x8b\x08" + bytes([flg]) + struct.pack("<I", mtime) + b"\x00" + bytes([os_])
    if extra is not None:
        h += struct.pack("<H", len(extra)) + extra
    if name is not None:
        h += name + b"\x00"
    if comment is not None:
        h += comment + b"\x00"
    if hcrc:
        h += struct.pack("<H", zlib.crc32(h) & 0xffff)
    return h + raw(data, level) + struct.pack("<II", zlib.crc32(data), len(data) & 0xffffffff)

open("python-gzip-module.gz", "wb").write(gzip.compress(text, compresslevel=9, mtime=1700000000))
open("python-all-fields.gz", "wb").write(member(
    text, flags=1, extra=b"Sl\x04\x00abcd", name=b"text.txt", comment=b"made by make-fixtures.sh", hcrc=True))
open("python-latin1-name.gz", "wb").write(member(binary, name="caf\u00e9.bin".encode("latin-1"), os_=255))
open("python-stored.gz", "wb").write(member(binary, level=0))
PY

{
  for f in *.gz; do
    set +e
    gzip -dc "$f" > /tmp/fixture.out 2>/dev/null
    code=$?
    set -e
    echo "$f $(sha256sum < /tmp/fixture.out | cut -d' ' -f1) $(stat -c %s /tmp/fixture.out) $code"
  done
} > MANIFEST
rm -f /tmp/fixture.out
cat MANIFEST
