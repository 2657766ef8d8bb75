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
  echo "building $* (one Maven run)…" >&2
  ./mvnw -q -B -DskipTests package >&2
fi
