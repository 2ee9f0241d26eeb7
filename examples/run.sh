#!/usr/bin/env bash
# Builds examples/consumer against the sluice-core that is installed in the local Maven repository, as a user's own
# project would, and runs it on the class path and on the module path. On JDK 22+ with native access enabled and
# libisal installed, it must decode with ISA-L (the program exits 1 otherwise).
# Usage: examples/run.sh   (JAVA_HOME chooses the JDK; install sluice-core first: mvn -pl sluice-core -am install)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/consumer"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
mvn -B -ntp -q package
feature="$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | head -1)"
expect=()
if (( ${feature#1.} >= 22 )) && ldconfig -p 2>/dev/null | grep -q 'libisal\.so\.2'; then
  expect=(--expect-isal)
fi
sluice_jar="$(ls target/lib/sluice-core-*.jar)"
# Class path: native access for every unnamed module.
"$java" --enable-native-access=ALL-UNNAMED -cp "target/classes:$sluice_jar" example.Consumer ${expect[@]+"${expect[@]}"}
# Module path: native access for module dev.sluice alone. JDK 17 knows no such option, so it gets none (and zlib).
native=()
(( ${feature#1.} >= 22 )) && native=(--enable-native-access=dev.sluice)
"$java" ${native[@]+"${native[@]}"} -p "target/classes:$sluice_jar" -m example/example.Consumer ${expect[@]+"${expect[@]}"}
