#!/bin/bash
cd /work/tmp/s11
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for r in 1 2 3; do
  for v in new base; do
    $J -jar bench-$v.jar AntsSleep -p peer=POOLKIT_VIRTUAL -f 4 -wi 3 -i 6 -rf json -rff ab2-$v-$r.json > ab2-$v-$r.out 2>&1
  done
  $J -jar bench-base.jar AntsSleep -p peer=VIRTUAL_SEMAPHORE -f 2 -wi 3 -i 6 -rf json -rff ab2-peer-$r.json > ab2-peer-$r.out 2>&1
done
