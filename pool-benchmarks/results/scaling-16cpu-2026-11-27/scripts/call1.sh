#!/usr/bin/env bash
# Device call 1 of 2026-11-27: A/B of main at a1ae113 ("base": its pool-core classes first on the class path) against
# the working tree ("cand": a padded semaphore state word and a padded thread-name counter), peers in the same run,
# then stack profiles, then the queued row's flatness (4 against 16 processors) with 3 forks.
set -u
cd "$(dirname "$0")"
tar xzf jre.tgz -C /tmp
J=/tmp/jre/bin/java
O=${OUT:-/tmp/bench-out}; mkdir -p "$O"
{ echo "cpus: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; date -u; } | tee "$O/machine.txt"
table() { grep -E '^(Benchmark|[A-Z][A-Za-z]+\.)' "$1"; }
F3="-f 3 -wi 1 -w 1s -i 3 -r 1s"; PROF="-f 1 -wi 1 -w 1s -i 3 -r 1s"; AF="-f 3 -wi 1 -i 5"; AP="-f 1 -wi 1 -i 3"; ANTS=""
if [ -n "${BENCH_SMOKE:-}" ]; then F3="-f 1 -wi 0 -i 1 -r 100ms"; PROF="$F3"; AF="-f 1 -wi 0 -i 1"; AP="$AF"; ANTS="-p tasks=10000"; fi
base="$J -cp base-core.jar:benchmarks.jar org.openjdk.jmh.Main"
cand="$J -cp benchmarks.jar org.openjdk.jmh.Main"
cpus=$(nproc); start=$SECONDS
echo "== semaphore acquire+release, 16 threads, size 64, $cpus cpus, 3 forks: base, then cand with j.u.c fair" | tee "$O/semaphore.txt"
timeout 40 $base SemaphoreContended $F3 -t 16 -p peer=POOLKIT -p size=64 -foe false > /tmp/s0.log 2>&1
timeout 60 $cand SemaphoreContended $F3 -t 16 -p peer=POOLKIT,JUC_FAIR -p size=64 -foe false > /tmp/s1.log 2>&1
{ echo "-- base"; table /tmp/s0.log; echo "-- cand"; table /tmp/s1.log; } | tee -a "$O/semaphore.txt"
echo "(semaphore: $((SECONDS - start)) s)" | tee -a "$O/machine.txt"
echo "== ants: 1M tasks x 10 ms, capacity 50k, $cpus cpus, 3 forks x 5: base, cand, peers" | tee "$O/ants.txt"
HP="-prof io.github.poolkit.benchmarks.HeapProfiler"
timeout 60 $base AntsSleep -p peer=POOLKIT_VIRTUAL $ANTS $AF $HP -foe false > /tmp/a0.log 2>&1
timeout 60 $cand AntsSleep -p peer=POOLKIT_VIRTUAL,VIRTUAL_SEMAPHORE $ANTS $AF $HP -foe false > /tmp/a1.log 2>&1
timeout 30 $cand AntsSleep -p peer=UNBOUNDED_VIRTUAL $ANTS -f 1 -wi 1 -i 5 $HP -foe false > /tmp/a2.log 2>&1
{ echo "-- base"; table /tmp/a0.log; echo "-- cand"; table /tmp/a1.log; table /tmp/a2.log | grep -v '^Benchmark'; } | tee -a "$O/ants.txt"
echo "(ants: $((SECONDS - start)) s)" | tee -a "$O/machine.txt"
ST="stack:lines=12;top=25;detailLine=true"
for p in POOLKIT_VIRTUAL VIRTUAL_SEMAPHORE; do
  timeout 40 $cand AntsSleep -p peer=$p $ANTS $AP -prof "$ST" -foe false > /tmp/ap.log 2>&1
  { echo "==== AntsSleep $p, cand, $cpus cpus"; sed -n '/Secondary result/,$p' /tmp/ap.log; } >> "$O/stack.txt"
done
timeout 40 $cand SemaphoreContended $PROF -t 16 -p peer=POOLKIT -p size=64 -prof "$ST" -foe false > /tmp/sp.log 2>&1
{ echo "==== SemaphoreContended POOLKIT size 64, cand, $cpus cpus"; sed -n '/Secondary result/,$p' /tmp/sp.log; } >> "$O/stack.txt"
echo "(profiles: $((SECONDS - start)) s)" | tee -a "$O/machine.txt"
last=$(( cpus >= 16 ? 16 : cpus ))
for c in 4 $last; do
  [ "$c" -le "$cpus" ] || { echo "== cpus=$c skipped: this machine has $cpus" | tee -a "$O/flat.txt"; continue; }
  echo "== queued tiny tasks, 16 workers, cpus=$c, 3 forks, cand (oneProducer: 1 producer; twoProducers -t 8: 8)" | tee -a "$O/flat.txt"
  timeout 60 taskset -c 0-$((c-1)) $J -cp benchmarks.jar org.openjdk.jmh.Main 'TinyTaskThroughput.oneProducer' $F3 -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=16 -foe false > /tmp/q1.log 2>&1
  timeout 60 taskset -c 0-$((c-1)) $J -cp benchmarks.jar org.openjdk.jmh.Main 'TinyTaskThroughput.twoProducers' $F3 -t 8 -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=16 -foe false > /tmp/q8.log 2>&1
  { table /tmp/q1.log; table /tmp/q8.log | grep -v '^Benchmark'; } | tee -a "$O/flat.txt"
done
echo "(total: $((SECONDS - start)) s)" | tee -a "$O/machine.txt"
