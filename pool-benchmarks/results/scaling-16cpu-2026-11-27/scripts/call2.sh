#!/usr/bin/env bash
# Device call 2 of 2026-11-27: the scaling table on main at 85701c3 (run.sh scaling), then the virtual-thread row at
# 2 and 16 processors with 3 forks: main at a1ae113 ("base") against 85701c3 ("cand"), the peer, and 85701c3 with the
# blocked caller's spin off ("nospin", a throw-away build: Spin.BLOCKED_CALLER_SPINS = 0).
set -u
cd "$(dirname "$0")"
O=${OUT:-/tmp/bench-out}; mkdir -p "$O"
start=$SECONDS
bash run.sh scaling > "$O/scaling-log.txt" 2>&1
echo "(scaling: $((SECONDS - start)) s)" >> "$O/machine.txt"
J=/tmp/jre/bin/java
table() { grep -E '^(Benchmark|[A-Z][A-Za-z]+\.)' "$1"; }
AF="-f 3 -wi 1 -i 5"; ANTS=""
[ -n "${BENCH_SMOKE:-}" ] && { AF="-f 1 -wi 0 -i 1"; ANTS="-p tasks=10000"; }
HP="-prof io.github.poolkit.benchmarks.HeapProfiler"
cpus=$(nproc)
for c in 2 16; do
  [ "$c" -le "$cpus" ] || continue
  echo "== ants: 1M tasks x 10 ms, capacity 50k, cpus=$c, 3 forks x 5" >> "$O/ants3.txt"
  for v in cand:benchmarks.jar:POOLKIT_VIRTUAL,VIRTUAL_SEMAPHORE base:base-core.jar:benchmarks.jar:POOLKIT_VIRTUAL nospin:nospin-core.jar:benchmarks.jar:POOLKIT_VIRTUAL; do
    name=${v%%:*}; rest=${v#*:}; peers=${rest##*:}; cp=${rest%:*}
    [ $c = 16 ] && [ $name = base ] && continue
    timeout 150 taskset -c 0-$((c-1)) $J -cp $cp org.openjdk.jmh.Main AntsSleep -p peer=$peers $ANTS $AF $HP -foe false > /tmp/a.log 2>&1
    { echo "-- $name"; table /tmp/a.log; } >> "$O/ants3.txt"
    echo "(ants cpus=$c $name: $((SECONDS - start)) s)" >> "$O/machine.txt"
  done
done
echo "(total: $((SECONDS - start)) s)" >> "$O/machine.txt"
