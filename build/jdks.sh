# Finding JDKs, for the launcher (./sluice) and the build (build/java22.sh): one place that knows where Debian and
# Temurin put them. Sourced, not run; bash only, no forks (the launcher pays for every fork on every start).

# sluice_jdk_version HOME: sets sluice_version to the feature version (17, 25, ...) that HOME/release names, or to
# "" when HOME has no release file or no java binary.
sluice_jdk_version() {
  sluice_version=""
  local line
  [[ -f "$1/release" && -x "$1/bin/java" ]] || return 0
  while IFS= read -r line; do
    if [[ "$line" == JAVA_VERSION=\"* ]]; then
      line="${line#JAVA_VERSION=\"}"
      line="${line%%[.\"]*}"
      line="${line#1.}"
      [[ "$line" =~ ^[0-9]+$ ]] && sluice_version="$line"
      return 0
    fi
  done <"$1/release"
}

# sluice_newest_jdk MIN [DIR]: sets sluice_jdk to the home of the newest JDK of version MIN or later under DIR
# (default /usr/lib/jvm) and sluice_jdk_feature to its version; both "" when there is none.
sluice_newest_jdk() {
  sluice_jdk=""
  sluice_jdk_feature=""
  local best=$(( $1 - 1 )) rel home
  for rel in "${2:-/usr/lib/jvm}"/*/release; do
    home="${rel%/release}"
    sluice_jdk_version "$home"
    if [[ -n "$sluice_version" ]] && (( sluice_version > best )); then
      best=$sluice_version
      sluice_jdk="$home"
      sluice_jdk_feature="$sluice_version"
    fi
  done
}
