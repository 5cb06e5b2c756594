#!/usr/bin/env bash
# Cluster semaphores on Redis, side by side in one JMH run: poolkit's RedisPermitSemaphore against Redisson's
# RSemaphore and RPermitExpirableSemaphore, on one loopback redis-server (no persistence) started here. The latency
# benchmark also runs two yardsticks (ScriptYardstick: the least Redis work of a lease-keeping grant, and RSemaphore's
# calls as scripts), both through Lettuce as poolkit calls Redis, so that the table shows what the scripts alone cost.
#
#   pool-benchmarks/run-redis.sh [quick|full|smoke]    (full: 8 forks, as in docs/benchmarks.md section 7)
#   pool-benchmarks/run-redis.sh ab [ROUNDS] [BENCHMARK]
#
# Prints JMH's table and writes target/results/redis.json. Needs redis-server (apt-get install redis-server).
# ab: ROUNDS (default 10) rounds of one fork per peer, the peers' order rotated every round, for BENCHMARK
# (default latency; 'contended' runs the three semaphores); then fork-stats.py prints each peer's fork means and
# poolkit's ratio to each peer with a 95% bootstrap interval over forks. JSON in target/results/redis-ab/. On a
# 2-processor machine forks of one peer differ by up to 2x, so compare peers only this way.
# ab honours two variables: PEERS (the peers, space-separated; default all of the benchmark's) and SETTINGS (JMH's
# per-fork settings; default "-wi 3 -w 2s -i 4 -r 2s"). The run of 2026-11-25 evening in docs/benchmarks.md was
#   PEERS="POOLKIT REDISSON_SEMAPHORE REDISSON_PERMIT_EXPIRABLE" SETTINGS="-wi 2 -w 1s -i 3 -r 1s" run-redis.sh ab 24
set -euo pipefail

mode=${1:-quick}
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
results=$here/target/results
mkdir -p "$results"

java=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
[[ -x $java ]] || java=java
(cd "$root" && ./mvnw -B -q -pl pool-benchmarks -am package -DskipTests -Dbenchmarks.jar)

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dir=$(mktemp -d)
redis-server --port "$port" --bind 127.0.0.1 --dir "$dir" --save "" --appendonly no --daemonize no \
    > "$dir/redis.log" 2>&1 &
redis_pid=$!
trap 'kill $redis_pid 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do
    redis-cli -p "$port" ping > /dev/null 2>&1 && break
    sleep 0.1
done

if [[ $mode == ab ]]; then
    rounds=${2:-10}
    benchmark=${3:-latency}
    peers=(POOLKIT REDISSON_SEMAPHORE REDISSON_PERMIT_EXPIRABLE)
    [[ $benchmark == latency ]] && peers+=(LEASE_FLOOR COUNTER_SCRIPT)
    [[ -n ${PEERS:-} ]] && read -r -a peers <<< "$PEERS"
    read -r -a settings <<< "${SETTINGS:--wi 3 -w 2s -i 4 -r 2s}"
    out=$results/redis-ab
    rm -rf "$out"
    mkdir -p "$out"
    for round in $(seq "$rounds"); do
        for k in "${!peers[@]}"; do
            peer=${peers[$(( (k + round) % ${#peers[@]} ))]}
            "$java" ${JMH_JAVA_OPTS:-} -jar "$here/target/benchmarks.jar" "RedisSemaphoreBenchmark.$benchmark" \
                -f 1 "${settings[@]}" -p port="$port" -p peer="$peer" \
                -rf json -rff "$out/round$round-$peer.json" > "$out/round$round-$peer.log" 2>&1
            echo "round $round: $peer done"
        done
    done
    python3 "$here/fork-stats.py" "$out"
    exit 0
fi

case $mode in
    quick) settings=(-f 1 -wi 3 -w 2s -i 5 -r 2s) ;;
    full) settings=(-f 8 -wi 3 -w 2s -i 4 -r 2s) ;;
    smoke) settings=(-f 1 -wi 1 -w 200ms -i 1 -r 200ms) ;;
    *) echo "usage: $0 [quick|full|smoke] | ab [ROUNDS] [latency|contended]" >&2; exit 2 ;;
esac
"$java" ${JMH_JAVA_OPTS:-} -jar "$here/target/benchmarks.jar" 'RedisSemaphoreBenchmark' "${settings[@]}" -p port="$port" \
    -rf json -rff "$results/redis.json"
