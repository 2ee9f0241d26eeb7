#!/usr/bin/env bash
# Whole-process gzip comparison on the JDK-source tar (~225 MB, page-cached): `sluice gzip -6 -c` vs `pigz -6 -p2 -c`
# (and one `gzip -6` run for the size baseline), then `sluice gunzip -c` vs `gzip -dc`, `pigz -dc`, `igzip -dc`.
# Needs hyperfine, gzip, pigz, igzip; builds the CLI and benchmark jars if missing. Usage: bash gzip-whole-process.sh
# Results go to stdout and /tmp/gzbench/*.md (hyperfine --export-markdown).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
[[ -f sluice-bench/target/benchmarks.jar ]] || mvn -B -ntp -q -DskipTests package -pl sluice-bench -am
./sluice --version >/dev/null   # builds sluice-cli/target/sluice.jar when stale
mapfile -t corpus < <(java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.gzip.GzipCorpus)
tar="${corpus[0]}"
gz="${corpus[1]}"
out=/tmp/gzbench
mkdir -p "$out"
runs="${RUNS:-3}"
echo "tar: $tar ($(stat -c %s "$tar") bytes); gz: $gz ($(stat -c %s "$gz") bytes)"

echo "== sizes at level 6"
for cmd in "gzip -6 -c" "pigz -6 -p2 -c" "./sluice gzip -6 -p2 -c"; do
  echo "$cmd: $($cmd "$tar" | wc -c) bytes"
done
./sluice gzip -6 -c "$tar" | gzip -t && echo "gzip -t accepts sluice's output"

hyperfine --runs "$runs" --warmup 1 --export-markdown "$out/compress.md" \
  "./sluice gzip -6 -c $tar > /dev/null" \
  "pigz -6 -p2 -c $tar > /dev/null"

hyperfine --runs "$runs" --warmup 1 --export-markdown "$out/decompress.md" \
  "./sluice gunzip -c $gz > /dev/null" \
  "gzip -dc $gz > /dev/null" \
  "pigz -dc $gz > /dev/null" \
  "igzip -dc $gz > /dev/null"
