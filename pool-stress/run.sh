#!/usr/bin/env bash
# Builds the jcstress tests of pool-stress and runs them.
#
#   pool-stress/run.sh [sanity|quick|default|tough|stress] [more jcstress options, e.g. -t WorkerPool]
#
# Mode defaults to quick. Needs a JDK 21+: uses $JAVA_HOME if it is one, else the newest under /usr/lib/jvm.
# Set STRESS_SKIP_BUILD=1 to reuse an existing pool-stress/target/jcstress.jar (e.g. right after `./mvnw verify`).
# Results: pool-stress/target/jcstress-<mode>/ (output.txt, results/index.html); with STRESS_TAG=<tag> set,
# pool-stress/target/jcstress-<mode>-<tag>/, so that a second run of the same mode keeps the first one's results.
# Exit status: 0 only if every test ran and passed; 1 on any FORBIDDEN outcome, failed or erroring test.
# The last line (also written to target/jcstress-<mode>/summary.txt) is a machine-readable summary:
#   JCSTRESS-SUMMARY mode=<mode> tests=<distinct tests with results> planned=<n> passed=<n> failed=<n> soft=<n> hard=<n>
set -euo pipefail

mode=${1:-quick}
shift || true
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")

java_major() { # prints the major version of the JDK at $1, or 0
    local v
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null || true)
    echo "${v:-0}"
}

find_jdk() {
    if [[ -n "${JAVA_HOME:-}" && $(java_major "$JAVA_HOME") -ge 21 ]]; then
        echo "$JAVA_HOME"
        return
    fi
    local best="" best_major=0 d m
    for d in /usr/lib/jvm/*/; do
        d=${d%/}
        m=$(java_major "$d")
        if [[ $m -ge 21 && $m -gt $best_major && -x $d/bin/java ]]; then
            best=$d
            best_major=$m
        fi
    done
    [[ -n $best ]] || { echo "run.sh: no JDK 21+ found (set JAVA_HOME)" >&2; exit 2; }
    echo "$best"
}

jdk=$(find_jdk)
jar=$here/target/jcstress.jar
if [[ "${STRESS_SKIP_BUILD:-0}" != 1 || ! -f $jar ]]; then
    (cd "$root" && ./mvnw -B -q -pl pool-stress -am package -DskipTests)
fi

out=$here/target/jcstress-$mode${STRESS_TAG:+-$STRESS_TAG}
rm -rf "$out"
mkdir -p "$out"
cd "$out" # jcstress writes its result blob into the working directory
echo "run.sh: $jdk/bin/java -jar $jar -m $mode -r $out/results $*"
set +e
"$jdk/bin/java" -jar "$jar" -m "$mode" -r "$out/results" "$@" 2>&1 | tee "$out/output.txt"
status=${PIPESTATUS[0]}
set -e

# The last progress line: (Results: 56 planned; 56 passed, 0 failed, 0 soft errs, 0 hard errs)
line=$(grep -E '^\(Results: ' "$out/output.txt" | tail -1 || true)
num() { sed -n "s/.* \([0-9][0-9]*\) $1.*/\1/p" <<<"$line"; }
planned=$(sed -n 's/^(Results: \([0-9]*\) planned.*/\1/p' <<<"$line")
passed=$(num passed)
failed=$(num failed)
soft=$(num 'soft errs')
hard=$(num 'hard errs')
tests=$(find "$out/results" -maxdepth 1 -name 'io.github.poolkit.*.html' 2>/dev/null | wc -l)
summary="JCSTRESS-SUMMARY mode=$mode tests=$tests planned=${planned:-0} passed=${passed:-0} failed=${failed:-0} soft=${soft:-0} hard=${hard:-0}"

ok=1
[[ $status -eq 0 ]] || ok=0
[[ -n $line && ${failed:-1} -eq 0 && ${soft:-1} -eq 0 && ${hard:-1} -eq 0 && ${passed:-0} -eq ${planned:--1} ]] || ok=0
grep -q '^  Failed tests: No matches' "$out/output.txt" || ok=0
grep -q '^  Error tests: No matches' "$out/output.txt" || ok=0
echo "$summary" | tee "$out/summary.txt"
if [[ $ok -ne 1 ]]; then
    echo "run.sh: jcstress FAILED (forbidden outcome, failed or erroring test; see $out/results/index.html)" >&2
    exit 1
fi
