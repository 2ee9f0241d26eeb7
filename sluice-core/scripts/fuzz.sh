#!/usr/bin/env bash
# Fuzzes each of sluice-core's Jazzer targets for MINUTES minutes, one after another (docs/fuzzing.md).
#
#   sluice-core/scripts/fuzz.sh MINUTES [TARGET...]     e.g. sluice-core/scripts/fuzz.sh 10 GzipInputFuzzTest
#
# TARGET is a fuzz test class name; by default every class named *FuzzTest. The corpus each target grows is kept in
# sluice-core/.cifuzz-corpus/ (not committed) and reused by the next run. A finding stops its target and is written
# straight into the target's committed inputs, src/test/resources/<package>/<Class>Inputs/fuzz/crash-<sha1>, where
# `mvn verify` replays it from then on: fix the bug, add a plain JUnit test for it, commit both.
# Extra libFuzzer flags: FUZZ_ARGS="-use_value_profile=1 -max_len=8192" sluice-core/scripts/fuzz.sh 10
set -euo pipefail
module="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
minutes="${1:?usage: $0 MINUTES [TARGET...]}"
shift
[[ "$minutes" =~ ^[0-9]+$ && "$minutes" -gt 0 ]] || { echo "MINUTES must be a positive whole number: $minutes" >&2; exit 2; }
if (( $# )); then
  targets=("$@")
else
  mapfile -t targets < <(cd "$module/src/test/java" && find . -name '*FuzzTest.java' -printf '%f\n' | sed 's/\.java$//' | sort)
fi

extra=()
i=4
for a in ${FUZZ_ARGS:-}; do
  extra+=("-Djazzer.internal.arg.$i=$a")
  i=$((i + 1))
done

cd "$module/.."
mvn -B -ntp -q -o -pl sluice-core test-compile
status=0
for t in "${targets[@]}"; do
  echo "== fuzzing $t for $minutes min"
  # The pom's fuzz execution with no run limit, a time limit and a fresh random seed (-seed=0); its basedir is the
  # module, so findings land in the committed inputs directory rather than under target/.
  if ! JAZZER_FUZZ=1 mvn -B -ntp -o -pl sluice-core surefire:test@fuzz -Dtest="$t" -Dsurefire.failIfNoSpecifiedTests=false \
      -Dfuzz.runs=-1 -Dfuzz.seed=0 -Djazzer.internal.arg.3="-max_total_time=$((minutes * 60))" \
      -Djazzer.internal.basedir="$module" "${extra[@]}"; then
    echo "== $t: FAILED (a finding, if any, is in $module/src/test/resources/.../${t}Inputs/fuzz/)" >&2
    status=1
  fi
done
exit $status
