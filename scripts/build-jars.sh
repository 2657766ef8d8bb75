#!/bin/sh
# Builds the jars of this checkout (the Lambda artifacts and the CLI's trainplane.jar: one Maven
# run writes them all) when one of JAR... is missing or older than the sources, and only then.
# Used by ./trainplane and by the Makefile's build-<Function> targets, which `sam build` runs once
# per function, each from its own copy of the source tree, several at a time with --parallel: the
# jars are built here, in the checkout the Makefile is in, by the first caller; the others wait for
# it (a lock directory) and find them fresh.
#   scripts/build-jars.sh JAR...          build when stale
#   scripts/build-jars.sh --check JAR...  exit 1 when stale, build nothing
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
check=false
if [ "${1:-}" = --check ]; then
  check=true
  shift
fi

# What the jars are made from: a change to any of these makes them stale.
stale() {
  for jar in "$@"; do
    [ -f "$jar" ] || return 0
    [ -z "$(find src/main functions statemachines template.yaml pom.xml -newer "$jar" -print 2>/dev/null | head -n 1)" ] || return 0
  done
  return 1
}

if $check; then
  if stale "$@"; then
    echo "stale: $*" >&2
    exit 1
  fi
  exit 0
fi

mkdir -p target
waited=0
until mkdir target/.build-lock 2>/dev/null; do
  if [ "$waited" -ge 900 ]; then
    echo "another build has held $root/target/.build-lock for 15 minutes; remove it if no build is running" >&2
    exit 1
  fi
  sleep 2
  waited=$((waited + 2))
done
trap 'rmdir "$root/target/.build-lock"' EXIT INT TERM
if stale "$@"; then
  # One line of progress, then Maven's own output only if it fails: -q, and the JVM warnings of
  # Maven 3.9's libraries on a JDK 22+ (jansi's System::load, guava's sun.misc.Unsafe) switched
  # off with the flags that allow what they do, where this JDK knows those flags.
  . "$root/scripts/java-home.sh"
  for flag in --enable-native-access=ALL-UNNAMED --sun-misc-unsafe-memory-access=allow; do
    if "$JAVA_HOME/bin/java" "$flag" -version >/dev/null 2>&1; then
      MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }$flag"
    fi
  done
  export MAVEN_OPTS
  if [ -f target/trainplane.jar ]; then
    echo "rebuilding the jars (the sources changed, ~1 min)..." >&2
  else
    echo "building the CLI (first run, ~2 min)..." >&2
  fi
  log=target/build-jars.log
  if ! ./mvnw -q -B -DskipTests package >"$log" 2>&1; then
    grep -v '^WARNING: ' "$log" >&2 || true
    echo "the build failed (its whole output: $root/$log)" >&2
    exit 1
  fi
fi
