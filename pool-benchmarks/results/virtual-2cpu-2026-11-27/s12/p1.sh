#!/bin/bash
cd /work/tmp/s12
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in 1 2; do
  for p in POOLKIT_VIRTUAL VIRTUAL_SEMAPHORE; do
    $J -jar bench-head.jar AntsSleep -p peer=$p -f 3 -wi 3 -i 6 -jvmArgsAppend -Djdk.virtualThreadScheduler.parallelism=1 -rf json -rff p1-$p-$r.json > p1-$p-$r.out 2>&1
  done
done
