#!/usr/bin/env bash
# Run 2 (throw-away): take-side variants of the queued pool, side by side with TPE, at 16/4/8 processors.
# The variants were chosen by system properties of a throw-away build (poolkit.internal.take = cas | lock | backoff,
# poolkit.internal.queueSpins); the repository keeps only the winner (Spin.TAKE_LOCKED), so this script does not
# reproduce the variants against main.
cd "$(dirname "$0")"
tar xzf jre.tgz -C /tmp
J=/tmp/jre/bin/java
O=${OUT:-/tmp/bench-out}; mkdir -p "$O"
T="-f 1 -wi 2 -w 1s -i 3 -r 1s"
[ -n "${BENCH_SMOKE:-}" ] && T="-f 1 -wi 0 -i 1 -r 100ms"
cpus=$(nproc)
{ echo "cpus: $cpus"; grep -m1 'model name' /proc/cpuinfo; } > "$O/machine.txt"
one() { # cpus workers bench threads variant spins peers
  [ "$1" -le "$cpus" ] || return 0
  timeout 60 taskset -c 0-$(($1-1)) $J -jar benchmarks.jar "TinyTaskThroughput.$3" $T -t $4 -p peer=$7 -p workers=$2 \
     -jvmArgsAppend "-Dpoolkit.internal.take=$5 -Dpoolkit.internal.queueSpins=$6" -foe false > /tmp/m.log 2>&1
  grep -E '^TinyTask' /tmp/m.log | sed "s/^/cpus=$1 take=$5 spins=$6 /" | tee -a "$O/matrix.txt"
}
for c in ${CPUS_LIST:-16 4 8}; do
  for b in "oneProducer 1" "twoProducers 8"; do
    set -- $b
    [ $c = 8 ] && [ $1 = twoProducers ] && continue
    one $c 16 $1 $2 cas 128 POOLKIT_QUEUED,TPE_FIXED
    one $c 16 $1 $2 lock 128 POOLKIT_QUEUED
    one $c 16 $1 $2 backoff 128 POOLKIT_QUEUED
    one $c 16 $1 $2 lock 0 POOLKIT_QUEUED
  done
done
for b in "oneProducer 1" "twoProducers 8"; do
  set -- $b
  one ${C64:-16} 64 $1 $2 cas 128 POOLKIT_QUEUED,TPE_FIXED
  one ${C64:-16} 64 $1 $2 lock 128 POOLKIT_QUEUED
  one ${C64:-16} 64 $1 $2 backoff 128 POOLKIT_QUEUED
done
