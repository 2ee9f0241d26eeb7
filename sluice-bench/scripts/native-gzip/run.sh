#!/bin/bash
# Paired whole-process runs of GzipInputStream/GzipOutputStream (native vs zlib, JDK 25 and 17) against igzip and
# pigz, and output sizes against igzip -1/-3. DIR holds sluice-core's jar as core.jar and Gunzip/Gzip compiled against it:
#   javac --release 17 -d DIR -cp DIR/core.jar sluice-bench/scripts/native-gzip/*.java; run.sh DIR TAR
# TAR: the JDK-source tar (java -cp sluice-bench/target/benchmarks.jar dev.sluice.bench.gzip.GzipCorpus prints its
# path, making it first); TAR.gz is made beside it with gzip -6 when missing. Run it with nothing else busy.
set -u
T="$(readlink -f "${2:?usage: run.sh DIR-with-core.jar-and-compiled-probes TAR}")"; G="$T.gz"
[[ -f "$G" ]] || gzip -6 -c "$T" > "$G"
cd "${1:?usage: run.sh DIR-with-core.jar-and-compiled-probes TAR}"
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; J17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java
CP="-cp core.jar:."
N="--enable-native-access=ALL-UNNAMED"
echo "== date $(date -u +%FT%TZ) cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) cores $(nproc) load $(cut -d' ' -f1-3 /proc/loadavg)"
for l in 1 3; do
  echo "size -$l: sluice-isal $($J25 $N -Dsluice.gzip.native=require -XX:TieredStopAtLevel=1 $CP Gzip $l $T | wc -c) igzip $(igzip -$l -c $T | wc -c) sluice-zlib $($J25 -Dsluice.gzip.native=off $CP Gzip $l $T | wc -c)"
done
python3 "$(dirname "$(readlink -f "$0")")/../paired.py" 6 \
  "$J25 $N -XX:TieredStopAtLevel=1 $CP Gunzip $G >/dev/null" \
  "igzip -dc $G >/dev/null" "pigz -dc $G >/dev/null" \
  "$J25 -Dsluice.gzip.native=off -XX:TieredStopAtLevel=1 $CP Gunzip $G >/dev/null" \
  "$J17 -XX:TieredStopAtLevel=1 $CP Gunzip $G >/dev/null"
python3 "$(dirname "$(readlink -f "$0")")/../paired.py" 4 \
  "$J25 $N -XX:TieredStopAtLevel=1 $CP Gzip 1 $T >/dev/null" "igzip -1 -c $T >/dev/null" \
  "$J25 $N -XX:TieredStopAtLevel=1 $CP Gzip 3 $T >/dev/null" "igzip -3 -c $T >/dev/null"
