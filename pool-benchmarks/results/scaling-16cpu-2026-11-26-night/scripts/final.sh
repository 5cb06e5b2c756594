#!/usr/bin/env bash
# The scaling table's queued rows (as run.sh scaling), then second samples of the semaphore and hand-off rows.
cd "$(dirname "$0")"
tar xzf jre.tgz -C /tmp
J=/tmp/jre/bin/java
O=${OUT:-/tmp/bench-out}; mkdir -p "$O"
{ echo "cpus: $(nproc)"; grep -m1 'model name' /proc/cpuinfo; } > "$O/machine.txt"
table() { grep -E '^(Benchmark|[A-Z][A-Za-z]+\.)' "$1"; }
T="-f 1 -wi 2 -w 1s -i 3 -r 1s"
[ -n "${BENCH_SMOKE:-}" ] && T="-f 1 -wi 0 -i 1 -r 100ms"
cpus=$(nproc)
for c in 16 2 4 8; do
  [ "$c" -le "$cpus" ] || continue
  echo "== queued tiny tasks, 16 workers, cpus=$c (oneProducer = 1 producer, twoProducers run with -t 8 = 8 producers)" >> "$O/queued.txt"
  timeout 60 taskset -c 0-$((c-1)) $J -jar benchmarks.jar 'TinyTaskThroughput.oneProducer' $T -p peer=POOLKIT_QUEUED,TPE_FIXED,FORK_JOIN -p workers=16 -foe false > /tmp/q1.log 2>&1
  timeout 60 taskset -c 0-$((c-1)) $J -jar benchmarks.jar 'TinyTaskThroughput.twoProducers' $T -t 8 -p peer=POOLKIT_QUEUED,TPE_FIXED,FORK_JOIN -p workers=16 -foe false > /tmp/q8.log 2>&1
  { table /tmp/q1.log; table /tmp/q8.log | grep -v '^Benchmark'; } >> "$O/queued.txt"
done
echo "== queued tiny tasks, 64 workers, $cpus cpus (1 and 8 producers)" >> "$O/queued.txt"
timeout 60 $J -jar benchmarks.jar 'TinyTaskThroughput.oneProducer' $T -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=64 -foe false > /tmp/q1.log 2>&1
timeout 60 $J -jar benchmarks.jar 'TinyTaskThroughput.twoProducers' $T -t 8 -p peer=POOLKIT_QUEUED,TPE_FIXED -p workers=64 -foe false > /tmp/q8.log 2>&1
{ table /tmp/q1.log; table /tmp/q8.log | grep -v '^Benchmark'; } >> "$O/queued.txt"
echo "== semaphore acquire+release, 16 threads, $cpus cpus" > "$O/semaphore.txt"
timeout 60 $J -jar benchmarks.jar 'SemaphoreContended' $T -t 16 -p peer=POOLKIT,JUC_NONFAIR,JUC_FAIR -p size=64 -foe false > /tmp/s.log 2>&1
table /tmp/s.log >> "$O/semaphore.txt"
echo "== hand-off (no queue), 1 producer, 16 workers, $cpus cpus" > "$O/handoff.txt"
timeout 60 $J -jar benchmarks.jar 'TinyTaskThroughput.oneProducer' $T -p peer=POOLKIT,TPE_SYNC_CALLER_RUNS,VIRTUAL_SEMAPHORE -p workers=16 -foe false > /tmp/h.log 2>&1
table /tmp/h.log >> "$O/handoff.txt"
