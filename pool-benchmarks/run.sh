#!/usr/bin/env bash
# Builds pool-benchmarks/target/benchmarks.jar, runs the JMH suites with a JDK 21+ and writes docs/benchmarks.md
# from JMH's JSON results (pool-benchmarks/report.py).
#
#   pool-benchmarks/run.sh [quick|full|smoke|profile]
#
#   quick    1 fork, 1 x 1 s warm-up, 3 x 1 s measurement, the ants benchmark at its full 1 000 000 tasks;
#            about 8 minutes on 2 cores.
#   full     2 forks, 3 x 2 s warm-up, 5 x 2 s measurement, every parameter.
#   smoke    proves every benchmark runs (tiny settings, numbers meaningless); writes target/results/benchmarks.md
#            instead of docs/benchmarks.md.
#   profile  the profiles behind docs/benchmarks.md's analysis of the missed targets (JFR; see profile.py); writes
#            docs/profiles.md. About 3 minutes.
#
# When `perf stat` works (Linux perf installed and allowed), the throughput suite also counts context switches and
# CPU time per task (JMH -prof perfnorm); they show where a task's time goes without a sampling profiler.
#
# Environment: BENCH_NOTE=text adds a note to the report (e.g. "the machine was shared with other builds");
# BENCH_OUT=path writes the report there instead, without the hand-written analysis (which is about the committed
# docs/benchmarks.md), e.g. BENCH_OUT=docs/benchmarks-full.md for a full run kept beside the quick one;
# BENCH_SUITES="scheduler scheduler-heap" re-runs only those suites and keeps the other suites' earlier results;
# JAVA_HOME is used if it is a JDK 21+, else the newest JDK 21+ under /usr/lib/jvm.
set -euo pipefail

mode=${1:-quick}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
results=$here/target/results

# The release file of a JDK states its version; print the feature number (21, 25, ...) or nothing.
feature_version() {
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null
}

find_jdk() {
    if [[ -n "${JAVA_HOME:-}" && "$(feature_version "$JAVA_HOME")" -ge 21 ]] 2>/dev/null; then
        echo "$JAVA_HOME"
        return
    fi
    local best="" best_version=0 dir v
    for dir in /usr/lib/jvm/*; do
        v=$(feature_version "$dir")
        if [[ -n "$v" && "$v" -ge 21 && "$v" -gt "$best_version" && -x "$dir/bin/java" ]]; then
            best=$dir
            best_version=$v
        fi
    done
    [[ -n "$best" ]] || { echo "run.sh: no JDK 21+ found (set JAVA_HOME or install one under /usr/lib/jvm)" >&2; exit 1; }
    echo "$best"
}

case "$mode" in
    quick)
        timed=(-f 1 -wi 1 -w 1s -i 3 -r 1s)
        shots=(-f 1 -wi 1 -i 3)
        heap_shots=(-f 1 -wi 0 -i 2)
        latency=(-p idleGapMicros=50)
        ants_tasks=1000000
        pending_jobs=1000000
        out=$root/docs/benchmarks.md
        ;;
    full)
        timed=(-f 2 -wi 3 -w 2s -i 5 -r 2s)
        shots=(-f 2 -wi 2 -i 5)
        heap_shots=(-f 2 -wi 1 -i 3)
        latency=()
        ants_tasks=1000000
        pending_jobs=1000000
        out=$root/docs/benchmarks.md
        ;;
    smoke)
        timed=(-f 1 -wi 0 -i 1 -r 200ms)
        shots=(-f 1 -wi 0 -i 1)
        heap_shots=(-f 1 -wi 0 -i 1)
        latency=(-p idleGapMicros=50)
        ants_tasks=10000
        pending_jobs=100000
        out=$results/benchmarks.md
        ;;
    profile)
        ;;
    *)
        echo "usage: $0 [quick|full|smoke|profile]" >&2
        exit 2
        ;;
esac

jdk=$(find_jdk)
java=$jdk/bin/java
echo "run.sh: $mode run with $("$java" -version 2>&1 | head -1) from $jdk"

cd "$root"
./mvnw -B -q -pl pool-benchmarks -am package -DskipTests -Dbenchmarks.jar
jar=$here/target/benchmarks.jar

if [[ "$mode" == profile ]]; then
    exec python3 "$here/profile.py" "$java" "$jar" "$here/target/profiles" "$root/docs/profiles.md"
fi

only=${BENCH_SUITES:-}
if [[ -z "$only" ]]; then
    rm -rf "$results"
fi
mkdir -p "$results"
started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# suite <id> <benchmark regex> <JMH options...>: one JMH run, JSON and log in target/results.
suite() {
    local id=$1 regex=$2
    shift 2
    if [[ -n "$only" && " $only " != *" $id "* ]]; then
        return
    fi
    echo "run.sh: suite $id"
    "$java" -jar "$jar" "$regex" "$@" -foe false -rf json -rff "$results/$id.json" >"$results/$id.log" 2>&1 \
        || echo "run.sh: suite $id ended with an error, see $results/$id.log"
    grep -E '^# Run complete|^Benchmark result' "$results/$id.log" || true
}

heap=(-prof io.github.poolkit.benchmarks.HeapProfiler)
counters=()
if perf stat -e context-switches -- true >/dev/null 2>&1; then
    counters=(-prof 'perfnorm:events=context-switches,task-clock')
fi
suite throughput 'TinyTaskThroughput' "${timed[@]}" ${counters[@]+"${counters[@]}"}
suite latency 'SubmitLatency' "${timed[@]}" ${latency[@]+"${latency[@]}"}
suite ants 'AntsSleep' "${shots[@]}" -p tasks=$ants_tasks "${heap[@]}"
suite semaphore 'Semaphore(Uncontended|Contended|WeightedMix)' "${timed[@]}"
suite scheduler 'SchedulerScheduleCancel' "${timed[@]}"
suite scheduler-heap 'SchedulerRetainedHeap' "${heap_shots[@]}" -p jobs=$pending_jobs "${heap[@]}"
suite lock 'IdleStackLock' "${timed[@]}"

cat >"$results/meta.json" <<EOF
{
  "mode": "$mode",
  "started": "$started",
  "finished": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "nproc": "$(nproc)",
  "cpu": "$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)",
  "memory": "$(awk '/MemTotal/ {printf "%.1f GiB", $2 / 1048576}' /proc/meminfo)",
  "loadBefore": "$load_before",
  "loadAfter": "$(cut -d' ' -f1-3 /proc/loadavg)",
  "jdk": "$("$java" -version 2>&1 | sed -n '2p')",
  "commit": "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- pool-core pool-benchmarks || echo '+changes')",
  "antsTasks": $ants_tasks,
  "rerun": "$only",
  "note": "$(printf '%s' "${BENCH_NOTE:-}" | sed 's/"/\\"/g')"
}
EOF
analysis=$here/analysis.md
if [[ -n "${BENCH_OUT:-}" ]]; then
    out=$(cd "$root" && realpath -m "$BENCH_OUT")
    analysis=/dev/null
fi
python3 "$here/report.py" "$results" "$analysis" "$out"
echo "run.sh: wrote $out"
