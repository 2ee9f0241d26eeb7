#!/usr/bin/env bash
# Compiles sluice-core's src/main/java22 (the ISA-L and libdeflate engines, java.lang.foreign) into
# target/classes/META-INF/versions/22 when Maven itself runs on JDK 17-21, with the newest JDK 22+ installed, so the
# jar is the same multi-release jar whichever JDK runs Maven (on JDK 22+ the native-engines profile in
# sluice-core/pom.xml compiles them with Maven's own compiler). SLUICE_JDK22=HOME chooses the JDK; otherwise the
# newest under /usr/lib/jvm. Without one the build says so once and the jar is the Java 17 base alone, which runs
# everywhere with the JDK's zlib.
# Usage: build/java22.sh MODULE_DIR
set -euo pipefail
module="$1"
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/jdks.sh"

jdk="${SLUICE_JDK22:-}"
if [[ -n "$jdk" ]]; then
  sluice_jdk_version "$jdk"
  (( ${sluice_version:-0} >= 22 )) || { echo "[ERROR] SLUICE_JDK22=$jdk is not a JDK 22 or later" >&2; exit 1; }
else
  sluice_newest_jdk 22
  jdk="$sluice_jdk"
fi
out="$module/target/classes/META-INF/versions/22"
rm -rf "$out"
if [[ -z "$jdk" || ! -x "$jdk/bin/javac" ]]; then
  echo "[WARNING] sluice-core: no JDK 22 or later found (install one under /usr/lib/jvm or set SLUICE_JDK22):"
  echo "[WARNING] the jar has no META-INF/versions/22, so it will use the JDK's zlib, never ISA-L or libdeflate."
  exit 0
fi
echo "[INFO] sluice-core: compiling src/main/java22 into META-INF/versions/22 with $jdk"
mkdir -p "$out"
sources="$module/target/java22-sources.txt"
find "$module/src/main/java22" -name '*.java' >"$sources"
# The same options as the parent pom's compiler configuration, against the base classes just compiled.
"$jdk/bin/javac" --release 22 -encoding UTF-8 -Xlint:all,-processing,-requires-automatic,-options \
  -XDstringConcat=inline -d "$out" -cp "$module/target/classes" @"$sources"
