#!/usr/bin/env bash
# hand-off A/B on 2 processors: jars given as NAME=PATH, interleaved single forks, order rotated each round
set -u
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
ROUNDS=$1; shift
T="-f 1 -wi 2 -w 1s -i 3 -r 1s -foe false"
for r in $(seq 1 $ROUNDS); do
  jars=("$@"); n=${#jars[@]}
  for k in $(seq 0 $((n-1))); do
    i=$(( (k + r) % n )); name=${jars[$i]%%=*}; jar=${jars[$i]#*=}
    nice -n -20 $J -jar $jar 'TinyTaskThroughput.oneProducer' $T -p peer=POOLKIT -p workers=16 2>&1 | grep -E '^TinyTask' | awk -v r=$r -v n=$name '{print "r" r, n, $(NF-3)}'
  done
done
