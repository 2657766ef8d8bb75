# Sourced by ./mvnw, ./trainplane and .ci/run (POSIX sh): points JAVA_HOME at a JDK >= 21. Keeps a JAVA_HOME that
# already qualifies; otherwise tries `java` on PATH, then the JDKs under /usr/lib/jvm and
# /Library/Java/JavaVirtualMachines.
_tp_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]) }'
}
_tp_find_jdk() {
  local candidate
  local path_java
  path_java=$(command -v javac 2>/dev/null || true)
  for candidate in "${JAVA_HOME:-}" ${path_java:+"$(dirname "$(dirname "$(readlink -f "$path_java")")")"} \
      /usr/lib/jvm/* /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/javac" ] || continue
    if [ "$(_tp_major "$candidate")" -ge 21 ] 2>/dev/null; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}
if ! JAVA_HOME=$(_tp_find_jdk); then
  echo "Trainplane needs a JDK 21 or newer; none found (set JAVA_HOME)." >&2
  exit 1
fi
export JAVA_HOME
