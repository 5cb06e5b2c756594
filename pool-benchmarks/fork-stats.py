#!/usr/bin/env python3
"""Per-peer fork means of JMH JSON results (one file per fork, as run-redis.sh ab writes them), and poolkit's ratio
to each peer with a 95% bootstrap interval over forks: a fork's mean is one sample, because iterations inside one fork
move together.

    fork-stats.py DIR [BASE_PEER]   (BASE_PEER defaults to POOLKIT)
"""
import collections
import glob
import json
import random
import statistics
import sys


def fork_means(directory):
    """benchmark -> peer -> [mean of each fork]"""
    means = collections.defaultdict(lambda: collections.defaultdict(list))
    for path in sorted(glob.glob(directory + '/*.json')):
        for result in json.load(open(path)):
            benchmark = result['benchmark'].rsplit('.', 1)[-1]
            peer = result['params']['peer']
            for fork in result['primaryMetric']['rawData']:
                means[benchmark][peer].append(statistics.mean(fork))
    return means


def ratio_interval(a, b, rounds=5000):
    """mean(a) / mean(b), and the 2.5th and 97.5th percentiles of the ratio over bootstrap resamples of both"""
    rng = random.Random(1)
    ratios = sorted(statistics.mean(rng.choices(a, k=len(a))) / statistics.mean(rng.choices(b, k=len(b)))
                    for _ in range(rounds))
    return statistics.mean(a) / statistics.mean(b), ratios[int(rounds * 0.025)], ratios[int(rounds * 0.975) - 1]


def main():
    directory = sys.argv[1]
    base = sys.argv[2] if len(sys.argv) > 2 else 'POOLKIT'
    for benchmark, peers in fork_means(directory).items():
        print(benchmark)
        for peer, forks in peers.items():
            print(f"  {peer:27s} {len(forks):2d} forks, mean {statistics.mean(forks):10.1f}"
                  f"  ({' '.join(f'{x:.0f}' for x in forks)})")
        for peer, forks in peers.items():
            if peer != base and base in peers:
                ratio, low, high = ratio_interval(peers[base], forks)
                print(f"  {base} / {peer}: {ratio:.2f}x ({low:.2f}-{high:.2f})")


if __name__ == '__main__':
    main()
