#!/usr/bin/env bash
# The CLI-versus-C-tools table: every everyday `sluice` command against its C peer, whole process, page-cached,
# `hyperfine -N` (no shell), at a tiny input (6 bytes: start-up) and at a large one (five copies of the JDK-source
# tar, about 1.1 GB), so that a launcher, JVM-flag or engine change shows what it does to every command.
#
#   table   (default) sluice with the launcher's choices beside cp, cmp, cksum, wc, pigz, igzip, gzip
#   flags   each sluice command under each JVM option set (SLUICE_JAVA_OPTS), to choose the launcher's per command
#   startup java -version against tiny sluice gunzip, gzip and cmp
#   engines sluice gzip -c and gunzip -c with the native engines and with zlib, on prefixes of the JDK-source tar
#           (64 KiB to 16 MiB): the input size from which binding ISA-L and libdeflate pays (gzip.zlibBelowBytes, size-policy.properties)
#
# Usage: sluice-bench/scripts/cli-vs-c.sh [table|flags|startup|engines] [tiny|large|both]
# Env: RUNS (default 5; 3 for the slow gzip -6 rows), DATA (default /tmp/sluice-cli-vs-c: ~5 GB for large),
#      OUT (default $DATA/results: one hyperfine markdown and JSON file per row), JAVA_HOME (else the launcher's JDK).
# Needs hyperfine, pigz, igzip (isal), gzip, cmp, cksum, wc. Large data is generated, never committed.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mode="${1:-table}"
sizes="${2:-both}"
runs="${RUNS:-5}"
data="${DATA:-/tmp/sluice-cli-vs-c}"
out="${OUT:-$data/results}"
mkdir -p "$data" "$out"
sluice="$root/sluice"
"$sluice" --version >/dev/null # builds the jars when stale, before anything is timed

# --- data ------------------------------------------------------------------------------------------------------
printf 'hello\n' >"$data/tiny"
[[ -f "$data/tiny.gz" ]] || gzip -6 -c "$data/tiny" >"$data/tiny.gz"
cp -f "$data/tiny" "$data/tiny.copy"
if [[ "$sizes" != tiny ]]; then
  if [[ ! -f "$data/large" ]]; then
    mapfile -t corpus < <(java -cp "$root/sluice-bench/target/benchmarks.jar" dev.sluice.bench.gzip.GzipCorpus)
    for _ in 1 2 3 4 5; do cat "${corpus[0]}"; done >"$data/large.tmp"
    mv "$data/large.tmp" "$data/large"
  fi
  [[ -f "$data/large.copy" ]] || cp "$data/large" "$data/large.copy"
  # One standard member, as gzip and pigz write (pigz -6: the same format as gzip -6 in a third of the time).
  [[ -f "$data/large.gz" ]] || pigz -6 -p2 -c "$data/large" >"$data/large.gz"
  # Sluice's own output: independent members.
  [[ -f "$data/large.sgz" ]] || "$sluice" gzip -6 -c "$data/large" >"$data/large.sgz"
  cat "$data"/large* >/dev/null # page-cached
fi

# The JDK the launcher runs: JAVA_HOME, else the newest 22+ under /usr/lib/jvm, else java on the PATH.
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
if [[ -z "${JAVA_HOME:-}" ]]; then
  source "$root/build/jdks.sh"
  sluice_newest_jdk 22
  [[ -n "$sluice_jdk" ]] && java="$sluice_jdk/bin/java"
fi

env_line() {
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores;" \
    "JDK: $("$java" -version 2>&1 | head -1); $(uname -r); runs: $runs"
}

# row NAME RUNS COMMAND... : one hyperfine comparison; output discarded (hyperfine's default), no shell.
row() {
  local name="$1" n="$2"
  shift 2
  echo "== $name"
  local prep=()
  [[ "$name" == *cp-* ]] && prep=(--prepare "rm -f $data/cp.out")
  hyperfine -N --runs "$n" --warmup 1 ${prep[@]+"${prep[@]}"} --export-markdown "$out/$name.md" \
    --export-json "$out/$name.json" "$@" 2>&1 | grep -v '^ *$'
}

table() {
  local s="$1" n="$runs" slow="${RUNS_SLOW:-3}"
  [[ "$s" == tiny ]] && slow="$runs"
  local f="$data/$s"
  row "cp-$s" "$n" "$sluice cp $f $data/cp.out" "cp $f $data/cp.out"
  row "cmp-$s" "$n" "$sluice cmp $f $f.copy" "cmp $f $f.copy"
  row "sum-$s" "$n" "$sluice sum $f" "cksum $f"
  row "wc-$s" "$n" "$sluice wc $f" "wc $f"
  row "gzip1-$s" "$n" "$sluice gzip -1 -c $f" "igzip -1 -c $f"
  row "gzip6-$s" "$slow" "$sluice gzip -6 -c $f" "pigz -6 -p2 -c $f"
  row "gunzip-$s" "$n" "$sluice gunzip -c $f.gz" "igzip -dc $f.gz" "pigz -dc $f.gz"
  [[ "$s" == tiny ]] || row "gunzip-own-$s" "$n" "$sluice gunzip -c $f.sgz" "igzip -dc $f.sgz"
  # The one-member file again, with an index beside it, once gunzip uses one (its --no-index says so): a hard link
  # of large.gz, so that the rows above never find the index.
  if [[ "$s" != tiny ]] && "$sluice" gunzip --help 2>/dev/null | grep -q -- '--no-index'; then
    ln -f "$f.gz" "$data/$s-indexed.gz"
    [[ -f "$data/$s-indexed.gz.sgzi" ]] || "$sluice" index "$data/$s-indexed.gz" >/dev/null
    row "gunzip-index-$s" "$n" "$sluice gunzip -c $data/$s-indexed.gz" "igzip -dc $data/$s-indexed.gz"
  fi
}

# The option sets the launcher has chosen between: the JVM's defaults, C1 alone, and the serial collector without
# hsperfdata (each alone and together), and C1 with transparent huge pages for the heap (needs THP [madvise]: under
# [never] the JVM prints a warning).
flag_sets=("" "-XX:TieredStopAtLevel=1" "-XX:+UseSerialGC -XX:-UsePerfData"
           "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData"
           "-XX:TieredStopAtLevel=1 -XX:+UseTransparentHugePages")
flags() {
  local s="$1" n="$runs" f="$data/$1" cmd
  local -a cmds=("cp $f $data/cp.out" "cmp $f $f.copy" "sum $f" "wc $f" "gzip -1 -c $f" "gzip -6 -c $f" "gunzip -c $f.gz")
  [[ "$s" == tiny ]] || cmds+=("gunzip -c $f.sgz")
  for cmd in "${cmds[@]}"; do
    local name="flags-${cmd%% *}-$s" args=() o
    [[ "$cmd" == "gzip -6"* ]] && name="flags-gzip6-$s"
    [[ "$cmd" == "gzip -1"* ]] && name="flags-gzip1-$s"
    [[ "$cmd" == *.sgz ]] && name="flags-gunzip-own-$s"
    for o in "${flag_sets[@]}"; do
      args+=(-n "[${o:-JVM defaults}]" "env 'SLUICE_JAVA_OPTS=$o' $sluice $cmd")
    done
    local k="$n"
    [[ "$cmd" == "gzip -6"* && "$s" != tiny ]] && k="${RUNS_SLOW:-3}"
    row "$name" "$k" "${args[@]}"
  done
}

startup() {
  # The last row runs the jar as the launcher would for that command, without the launcher: its own cost.
  local archive
  archive="$(ls "$root"/sluice-cli/target/cds/*.jsa 2>/dev/null | head -1)"
  row "startup" "$((runs * 4))" "$java -version" "$sluice gunzip -c $data/tiny.gz" "$sluice gzip -c $data/tiny" \
    "$sluice cmp $data/tiny $data/tiny.copy" \
    "$java ${archive:+-XX:SharedArchiveFile=$archive -Xlog:disable} -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -XX:-UsePerfData -jar $root/sluice-cli/target/sluice.jar cmp $data/tiny $data/tiny.copy"
}

engines() {
  local tar k f
  mapfile -t corpus < <(java -cp "$root/sluice-bench/target/benchmarks.jar" dev.sluice.bench.gzip.GzipCorpus)
  tar="${corpus[0]}"
  for k in 64 256 1024 4096 16384; do
    f="$data/prefix-${k}k"
    head -c $((k * 1024)) "$tar" >"$f"
    gzip -6 -c "$f" >"$f.gz"
    row "engines-gunzip-${k}k" "$((runs * 2))" \
      -n "gunzip ${k} KiB native" "env SLUICE_JAVA_OPTS=-Dsluice.gzip.native=auto $sluice gunzip -c $f.gz" \
      -n "gunzip ${k} KiB zlib" "env SLUICE_JAVA_OPTS=-Dsluice.gzip.native=off $sluice gunzip -c $f.gz"
    row "engines-gzip-${k}k" "$((runs * 2))" \
      -n "gzip ${k} KiB native" "env SLUICE_JAVA_OPTS=-Dsluice.gzip.native=auto $sluice gzip -c $f" \
      -n "gzip ${k} KiB zlib" "env SLUICE_JAVA_OPTS=-Dsluice.gzip.native=off $sluice gzip -c $f"
  done
}

env_line | tee "$out/environment.txt"
case "$sizes" in both) set -- tiny large ;; *) set -- "$sizes" ;; esac
for s in "$@"; do
  case "$mode" in
    table) table "$s" ;;
    flags) flags "$s" ;;
    startup) startup; break ;;
    engines) engines; break ;;
    *) echo "unknown mode $mode (table, flags, startup or engines)" >&2; exit 2 ;;
  esac
done
echo "results: $out"
