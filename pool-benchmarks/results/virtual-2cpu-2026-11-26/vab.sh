#!/usr/bin/env bash
# AntsSleep A/B on 2 processors: the 0.2 engine, the session's start, the new engine, and the peers; interleaved single forks.
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in $(seq 1 ${1:-4}); do
  for v in base start new sem unb; do
    case $v in base) jar=base.jar; p=POOLKIT_VIRTUAL;; start) jar=head.jar; p=POOLKIT_VIRTUAL;; new) jar=v2.jar; p=POOLKIT_VIRTUAL;;
      sem) jar=v2.jar; p=VIRTUAL_SEMAPHORE;; unb) jar=v2.jar; p=UNBOUNDED_VIRTUAL;; esac
    out=$(timeout 300 nice -n -20 $J -jar $jar AntsSleep -p peer=$p -f 1 -wi 3 -i 5 -prof io.github.poolkit.benchmarks.HeapProfiler 2>&1 | grep -E "^AntsSleep")
    ms=$(echo "$out" | grep "sleepers " | awk '{print $(NF-3)}'); mb=$(echo "$out" | grep "heap.peak" | awk '{print $(NF-1)}')
    echo "r$r $v $ms ms $mb MB"
  done
done
