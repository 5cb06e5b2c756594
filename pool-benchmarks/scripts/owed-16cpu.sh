#!/usr/bin/env bash
# What the scaling issue still owes, in one device call (about 7 minutes on 16 processors; timeout_s 560).
#
# Three questions the 2026-11-26 runs left open, each answered side by side with its peers in one run:
#   1. flat.txt      queued tiny tasks, 16 workers, at 4 and 16 processors, 1 and 8 producers, 3 forks each:
#                    is the 16-processor figure below the 4-processor one beyond the errors? (one fork could not say)
#   2. ants.txt      virtual threads (AntsSleep) at 16 processors with JMH's stack profiler: where the 20% against
#                    the semaphore peer goes (no profile exists yet)
#   3. semaphore.txt WeightedSemaphore against j.u.c fair, 16 threads, size 64, 3 forks, then poolkit's stack profile
#
# Use, from the project root (prepare.sh deletes .bench16, so copy this script after it):
#   ../shared/tools/bench16/prepare.sh && cp pool-benchmarks/scripts/owed-16cpu.sh .bench16/
#   BENCH_SMOKE=1 bash .bench16/owed-16cpu.sh          (here first: a minute, figures meaningless)
#   device run: command "bash .bench16/owed-16cpu.sh", carry [".bench16"], timeout_s 560
set -u
cd "$(dirname "$0")"
tar xzf jre.tgz -C /tmp
J=/tmp/jre/bin/java
O=${OUT:-/tmp/bench-out}; mkdir -p "$O"
{ echo "cpus: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; date -u; } | tee "$O/machine.txt"
table() { grep -E '^(Benchmark|[A-Z][A-Za-z]+\.)' "$1"; }
F3="-f 3 -wi 2 -w 1s -i 3 -r 1s"
PROF="-f 1 -wi 1 -i 3"
ANTS=""
if [ -n "${BENCH_SMOKE:-}" ]; then F3="-f 1 -wi 0 -i 1 -r 100ms"; PROF="-f 1 -wi 0 -i 1 -r 100ms"; ANTS="-p tasks=10000"; fi
cpus=$(nproc)
last=$(( cpus >= 16 ? 16 : cpus ))
start=$SECONDS
for c in 4 $last; do
  [ "$c" -le "$cpus" ] || { echo "== cpus=$c skipped: this machine has $cpus" | tee -a "$O/flat.txt"; continue; }
  echo "== queued tiny tasks, 16 workers, cpus=$c, 3 forks (oneProducer: 1 producer; twoProducers with -t 8: 8)" | tee -a "$O/flat.txt"
  timeout 100 taskset -c 0-$((c-1)) $J -jar benchmarks.jar 'TinyTaskThroughput.oneProducer' $F3 -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=16 -foe false > /tmp/q1.log 2>&1
  timeout 100 taskset -c 0-$((c-1)) $J -jar benchmarks.jar 'TinyTaskThroughput.twoProducers' $F3 -t 8 -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=16 -foe false > /tmp/q8.log 2>&1
  { table /tmp/q1.log; table /tmp/q8.log | grep -v '^Benchmark'; } | tee -a "$O/flat.txt"
done
echo "(flat: $((SECONDS - start)) s)" | tee -a "$O/flat.txt"
echo "== ants: 1M tasks x 10 ms, capacity 50k, $cpus cpus, -prof stack" | tee "$O/ants.txt"
timeout 120 $J -jar benchmarks.jar AntsSleep -p peer=POOLKIT_VIRTUAL,VIRTUAL_SEMAPHORE $ANTS $PROF \
  -prof 'stack:lines=12;top=25;detailLine=true' -foe false > /tmp/a.log 2>&1
sed -n '/Secondary result/,$p' /tmp/a.log | grep -vE '^(WARNING|# (Warmup|Measurement) Iteration|Iteration|# Run progress)' >> "$O/ants.txt"
table /tmp/a.log | tee -a "$O/ants.txt"
echo "== semaphore acquire+release, 16 threads, size 64, $cpus cpus, 3 forks" | tee "$O/semaphore.txt"
timeout 100 $J -jar benchmarks.jar 'SemaphoreContended' $F3 -t 16 -p peer=POOLKIT,JUC_FAIR -p size=64 -foe false > /tmp/s.log 2>&1
table /tmp/s.log | tee -a "$O/semaphore.txt"
echo "== the same, poolkit only, -prof stack" >> "$O/semaphore.txt"
timeout 60 $J -jar benchmarks.jar 'SemaphoreContended' $PROF -t 16 -p peer=POOLKIT -p size=64 \
  -prof 'stack:lines=12;top=25;detailLine=true' -foe false > /tmp/sp.log 2>&1
sed -n '/Secondary result/,$p' /tmp/sp.log >> "$O/semaphore.txt"
echo "(total: $((SECONDS - start)) s)" | tee -a "$O/machine.txt"
