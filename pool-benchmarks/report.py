#!/usr/bin/env python3
"""Writes docs/benchmarks.md from the JMH JSON results of pool-benchmarks/run.sh.

usage: report.py RESULTS_DIR ANALYSIS_MD OUT_MD

RESULTS_DIR holds one <suite>.json (JMH -rf json) and <suite>.log per suite, and meta.json (machine, JDK, mode).
ANALYSIS_MD, if it exists, is hand-written commentary appended to the report.
"""
import json
import math
import os
import sys


class Suite:
    """One table family: which JSON, which peers are the subjects, which figures to show and divide."""

    def __init__(self, ident, title, intro, refs, columns, ratios, better, reading=None):
        self.ident = ident
        self.title = title
        self.intro = intro
        self.refs = refs  # subject peers; each gets a "subject / peer" ratio column
        self.columns = columns  # metric keys shown: 'score', 'p50', 'p99', or a secondary metric name
        self.ratios = ratios  # metric keys divided
        self.better = better  # 'higher' or 'lower', for the ratio's reading
        self.reading = reading or (f'Ratios: {" and ".join(refs)} divided by each peer; {better} is better '
                                   'for poolkit.')


SUITES = [
    Suite('throughput', '1. Tiny-task throughput',
          'Each producer submits 1 000 tasks that only count themselves and waits for the batch; tasks per second, '
          'submission to completion. `POOLKIT` is a `WorkerPool` without a queue (the caller blocks while every '
          'worker is busy), `POOLKIT_QUEUED` one with `queueCapacity(-1)`. `TPE_FIXED` = '
          '`Executors.newFixedThreadPool`, `TPE_SYNC_CALLER_RUNS` = ThreadPoolExecutor + SynchronousQueue + '
          'CallerRunsPolicy, `SPRING` = ThreadPoolTaskExecutor (core = max = workers), `VIRTUAL_SEMAPHORE` = a '
          'virtual thread per task bounded by a Semaphore. `ARRAY_MPMC` is a yardstick, not a product: a bare fixed '
          'pool over JCTools\' array-based MPMC queue, bounding what a better queue could give. When perf was '
          'available, `context-switches` and `cpu.us` are per task, over all threads of the benchmark JVM (JMH '
          '`-prof perfnorm`): the number of times a thread was switched off its core, and the CPU time spent.',
          ['POOLKIT', 'POOLKIT_QUEUED'], ['score', 'context-switches', 'cpu.us'], ['score'], 'higher'),
    Suite('latency', '2. Submit-to-start latency',
          'One `execute` of a task that raises a flag, until the submitter sees the flag, after the executor was left '
          'idle for `idleGapMicros` (so workers are idle, and parked rather than spinning after 50 us). '
          'JMH SampleTime: p50, p99 and mean of every invocation.',
          ['POOLKIT', 'POOLKIT_QUEUED'], ['p50', 'p99', 'score'], ['p50', 'p99'], 'lower'),
    Suite('ants', '3. The ants benchmark (sleeping tasks)',
          'ants\' `BenchmarkAntsPool` vs `BenchmarkGoroutines`, translated: `tasks` tasks sleeping 10 ms each, '
          'through a pool of capacity 50 000 with unpooled virtual threads (`POOLKIT_VIRTUAL`, '
          '`virtualThreads(true)`), one unbounded virtual thread per task '
          '(`UNBOUNDED_VIRTUAL`), or virtual threads bounded by a Semaphore of 50 000 (`VIRTUAL_SEMAPHORE`); one '
          'submitting thread, elapsed time until all have run (single shot), and `heap.peak`, the most used heap '
          'sampled every millisecond (garbage included; forks run with -Xms256m -Xmx4g).',
          ['POOLKIT_VIRTUAL'], ['score', 'heap.peak'], ['score', 'heap.peak'], 'lower'),
    Suite('semaphore', '4. Semaphores',
          'Average cost of acquire(n) + release(n), ns. Uncontended: one thread, 64 permits. Contended: two threads, '
          '`size` permits (1: they take turns, so every other acquire blocks; 64: they only race on the state). '
          'Weighted mix: two threads, 8 permits, weights 1,1,2,4,1,8,1,2 cycling (the bulkhead cannot do weights).',
          ['POOLKIT'], ['score'], ['score'], 'lower'),
    Suite('scheduler', '5a. Scheduler: schedule + cancel',
          'Schedule a one-shot job among `pending` others (due in about an hour) and cancel it; pairs per second, '
          'one thread. STPE = ScheduledThreadPoolExecutor(1) with setRemoveOnCancelPolicy(true); NETTY_WHEEL = '
          'HashedWheelTimer with its defaults (100 ms tick, 512 buckets).',
          ['POOLKIT'], ['score'], ['score'], 'higher'),
    Suite('scheduler-heap', '5b. Scheduler: heap of pending jobs',
          'Schedule `jobs` one-shot jobs (each a distinct lambda) due in about an hour. `heap.perJob` = (used heap '
          'after full GCs with the jobs pending - the same before) / jobs, the job itself included; the score is the '
          'time to schedule them all.',
          ['POOLKIT'], ['heap.perJob', 'heap.retained', 'score'], ['heap.perJob'], 'lower'),
    Suite('lock', '6. The engine lock',
          'What one task costs the engine\'s lock: pop an idle worker from an array stack, then push it back, each '
          'in its own critical section. ns per pop+push; `REENTRANT` (ReentrantLock) is what the pool engine (PoolCore) uses today, '
          '`SPIN` is ants\' spin lock (CAS, then 1, 2, 4 .. 16 `Thread.yield()`s), `SYNCHRONIZED` a monitor.',
          ['REENTRANT'], ['score'], ['score'], 'lower',
          reading='Ratios: REENTRANT divided by each peer; above 1 means the peer is the cheaper lock.'),
]


def num(x):
    """JMH writes NaN as the string "NaN"; returns a float, or None when there is no number."""
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(x) else x


def fmt(x):
    x = num(x)
    if x is None:
        return 'n/a'
    a = abs(x)
    if a >= 1000:
        return f'{x:,.0f}'
    if a >= 100:
        return f'{x:.0f}'
    if a >= 10:
        return f'{x:.1f}'
    if a >= 1:
        return f'{x:.2f}'
    return f'{x:.3g}'


def short(benchmark):
    cls, method = benchmark.split('.')[-2:]
    return cls, method


class Row:
    """One benchmark result: a peer in a group."""

    def __init__(self, entry):
        self.cls, self.method = short(entry['benchmark'])
        params = dict(entry.get('params', {}))
        self.peer = params.pop('peer', '?')
        self.params = params
        self.threads = entry.get('threads', 1)
        primary = entry['primaryMetric']
        self.unit = primary['scoreUnit']
        self.values = {'score': (num(primary['score']), num(primary.get('scoreError')))}
        percentiles = primary.get('scorePercentiles', {})
        if entry.get('mode') == 'sample':
            self.values['p50'] = (num(percentiles.get('50.0')), None)
            self.values['p99'] = (num(percentiles.get('99.0')), None)
        self.units = {'score': self.unit, 'p50': self.unit, 'p99': self.unit}
        for name, metric in entry.get('secondaryMetrics', {}).items():
            self.values[name] = (num(metric['score']), num(metric.get('scoreError')))
            self.units[name] = metric['scoreUnit']
        # perf's task-clock per operation is in ms of CPU time (all threads); shown as microseconds per task.
        clock = self.value('task-clock')
        if clock is not None:
            self.values['cpu.us'] = (clock * 1000, None)
            self.units['cpu.us'] = 'CPU us/op'

    def group(self):
        return (self.cls, self.method) + tuple(sorted(self.params.items()))

    def value(self, key):
        v = self.values.get(key)
        return None if v is None else v[0]


def load(results, suite):
    path = os.path.join(results, suite.ident + '.json')
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return []
    with open(path) as f:
        return [Row(e) for e in json.load(f)]


def missing_reason(suite):
    return f'not run: failed, see pool-benchmarks/target/results/{suite.ident}.log'


def cell(row, key):
    v = row.values.get(key)
    if v is None:
        return 'n/a'
    score, err = v
    text = fmt(score)
    if err is not None:
        text += ' ± ' + fmt(err)
    return text


def ratio(a, b):
    if a is None or b is None or b == 0:
        return None
    return a / b


def table(results, suite, rows):
    out = []
    # Optional columns (perf counters) are only shown when this run measured them.
    columns = [k for k in suite.columns if k in ('score', 'p50', 'p99') or any(k in r.values for r in rows)]
    groups = {}
    peers_of = {}  # per benchmark method: every peer seen in any of its groups, subjects first
    for r in rows:
        groups.setdefault(r.group(), []).append(r)
        peers = peers_of.setdefault((r.cls, r.method), [p for p in suite.refs])
        if r.peer not in peers:
            peers.append(r.peer)
    for key, members in groups.items():
        by_peer = {r.peer: r for r in members}
        sample = members[0]
        peers = peers_of[(sample.cls, sample.method)]
        params = ', '.join(f'{k}={v}' for k, v in sorted(sample.params.items()))
        threads = f', {sample.threads} thread{"s" if sample.threads > 1 else ""}'
        out.append(f'**{sample.cls}.{sample.method}**{" (" + params + ")" if params else ""}{threads}\n')
        heads = ['peer'] + [f'{k} ({sample.units.get(k, "")})' for k in columns]
        refs = [p for p in suite.refs if p in by_peer]
        for ref in refs:
            for k in suite.ratios:
                heads.append(f'{ref} / peer ({k})')
        out.append('| ' + ' | '.join(heads) + ' |')
        out.append('|' + '---|' * len(heads))
        for peer in peers:
            r = by_peer.get(peer)
            if r is None:
                out.append(f'| {peer} | {missing_reason(suite)} |' + ' |' * (len(heads) - 2))
                continue
            cells = [f'`{peer}`'] + [cell(r, k) for k in columns]
            for ref in refs:
                for k in suite.ratios:
                    x = ratio(by_peer[ref].value(k), r.value(k))
                    cells.append('n/a' if x is None else f'{x:.2f}x')
            out.append('| ' + ' | '.join(cells) + ' |')
        out.append('')
    return out


# ------------------------------------------------------------------ targets

def find(rows, cls, peer, **params):
    for r in rows:
        if r.cls == cls and r.peer == peer and all(r.params.get(k) == v for k, v in params.items()):
            yield r


def verdict(measured, op, target):
    if measured is None:
        return 'not measured'
    if op == '>=':
        return 'met' if measured >= target else f'**missed** by {percent(1 - measured / target)}'
    return 'met' if measured <= target else f'**missed** by {percent(measured / target - 1)}'


def percent(fraction):
    """A miss as a percentage; below 1% with one decimal, so that a hair's breadth does not read as 0%."""
    return f'{100 * fraction:.1f}%' if fraction < 0.01 else f'{100 * fraction:.0f}%'


def targets(data):
    """Yields (target, configuration, measured, verdict) lines."""
    thr = data.get('throughput', [])
    for method in ('oneProducer', 'twoProducers'):
        for workers in ('2', '64'):
            for subject in ('POOLKIT', 'POOLKIT_QUEUED'):
                s = next((r for r in thr if r.method == method and r.peer == subject
                          and r.params.get('workers') == workers), None)
                for peer, op, goal, label in (('TPE_FIXED', '>=', 1.5, 'ThreadPoolExecutor'),
                                              ('FORK_JOIN', '>=', 1.0, 'ForkJoinPool')):
                    p = next((r for r in thr if r.method == method and r.peer == peer
                              and r.params.get('workers') == workers), None)
                    x = ratio(s and s.value('score'), p and p.value('score'))
                    yield (f'throughput {subject} >= {goal}x {label}', f'{method}, {workers} workers',
                           'n/a' if x is None else f'{x:.2f}x', verdict(x, op, goal))
    ants = data.get('ants', [])
    pool = next(find(ants, 'AntsSleep', 'POOLKIT_VIRTUAL'), None)
    unbounded = next(find(ants, 'AntsSleep', 'UNBOUNDED_VIRTUAL'), None)
    tasks = pool.params.get('tasks') if pool else '?'
    x = ratio(pool and pool.value('heap.peak'), unbounded and unbounded.value('heap.peak'))
    yield ('ants: peak heap <= 0.3x unbounded virtual threads', f'{tasks} tasks',
           'n/a' if x is None else f'{x:.2f}x', verdict(x, '<=', 0.3))
    bounded = next(find(ants, 'AntsSleep', 'VIRTUAL_SEMAPHORE'), None)
    x = ratio(bounded and bounded.value('score'), pool and pool.value('score'))
    yield ('ants: speed >= 1.0x semaphore-bounded virtual threads', f'{tasks} tasks',
           'n/a' if x is None else f'{x:.2f}x', verdict(x, '>=', 1.0))
    sem = data.get('semaphore', [])
    for peer in ('JUC_NONFAIR', 'JUC_FAIR'):
        s = next(find(sem, 'SemaphoreUncontended', 'POOLKIT'), None)
        p = next(find(sem, 'SemaphoreUncontended', peer), None)
        x = ratio(s and s.value('score'), p and p.value('score'))
        yield (f'WeightedSemaphore uncontended cost <= 1.0x Semaphore', peer,
               'n/a' if x is None else f'{x:.2f}x', verdict(x, '<=', 1.0))
    sched = data.get('scheduler', [])
    for pending in ('1000', '100000'):
        s = next(find(sched, 'SchedulerScheduleCancel', 'POOLKIT', pending=pending), None)
        p = next(find(sched, 'SchedulerScheduleCancel', 'NETTY_WHEEL', pending=pending), None)
        x = ratio(s and s.value('score'), p and p.value('score'))
        yield ('DelayScheduler schedule+cancel >= 1.0x HashedWheelTimer', f'{pending} pending',
               'n/a' if x is None else f'{x:.2f}x', verdict(x, '>=', 1.0))


def main(results, analysis, out_path):
    with open(os.path.join(results, 'meta.json')) as f:
        meta = json.load(f)
    commentary = ''
    if analysis and os.path.exists(analysis):
        with open(analysis) as f:
            commentary = f.read().rstrip()
    data = {s.ident: load(results, s) for s in SUITES}
    out = ['# poolkit benchmarks', '',
           f'Generated by `pool-benchmarks/run.sh {meta["mode"]}` from JMH JSON; do not edit by hand '
           '(commentary lives in `pool-benchmarks/analysis.md`).', '',
           '**Many processors:** every table up to the analysis was measured on 2 processors. For 2, 4, 8 and 16, '
           'see [Scaling](#scaling-2-to-16-processors-runs-of-2026-11-26-and-2026-11-27) (hand-written, from a 16-core machine).', '',
           '| | |', '|---|---|',
           f'| run | {meta["started"]} to {meta["finished"]} (UTC), mode `{meta["mode"]}`, commit {meta["commit"]} |',
           f'| machine | {meta["nproc"]} CPUs ({meta["cpu"]}), {meta["memory"]} |',
           f'| JDK | {meta["jdk"]} |',
           f'| load average (1/5/15 min) | before: {meta["loadBefore"]}; after: {meta["loadAfter"]} |']
    if meta.get('rerun'):
        out.append(f'| partial re-run | only `{meta["rerun"]}` ran at the time above; the other suites come from '
                   'the previous run of the same mode |')
    if meta.get('note'):
        out.append(f'| note | {meta["note"]} |')
    out.append('')
    if meta['mode'] == 'quick':
        ants = '' if meta['antsTasks'] >= 1000000 else \
            f', and the ants benchmark scaled down to {meta["antsTasks"]:,} tasks (from 1 000 000)'
        out += ['**Quick mode**: 1 fork, 1 warm-up and 3 measured iterations of 1 s (single-shot suites: 1 warm-up, '
                f'3 measured), only `idleGapMicros=50` for latency{ants}. Errors are 99.9% confidence half-widths '
                'from very few samples: wide, or n/a. Run `pool-benchmarks/run.sh full` for figures to rely on.', '']
    out += ['Each table below was measured in one run: poolkit and its peers side by side, same JVM flags. '
            'A ratio is the poolkit figure divided by the peer\'s, so for throughput above 1 is better for '
            'poolkit, for times and bytes below 1 is.', '']
    out += ['## Targets', '', '| target | configuration | measured | verdict |', '|---|---|---|---|']
    for t in targets(data):
        out.append('| ' + ' | '.join(t) + ' |')
    where = 'at the end of this page' if commentary else 'at the end of [benchmarks.md](benchmarks.md)'
    out += ['', f'Every missed target is explained, by how much and why, in the analysis {where}; the profiles it '
            'cites are in [profiles.md](profiles.md) (`pool-benchmarks/run.sh profile`).', '']
    for s in SUITES:
        out += [f'## {s.title}', '', s.intro, '', s.reading, '']
        if not data[s.ident]:
            out += [f'_No results: the suite did not run ({missing_reason(s)})._', '']
            continue
        out += table(results, s, data[s.ident])
    if commentary:
        out += [commentary, '']
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    with open(out_path, 'w') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
