package io.github.poolkit.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Suite 6: the lock inside {@code WorkerPool}. Each operation is what one task costs the engine's lock: a pop from the
 * idle-worker stack (in {@code execute}) and, in a separate critical section, a push back (when the worker finishes),
 * both on an array stack as {@code IdleWorkerStack} does. Guarded by ants' spin lock ({@link SpinLock}),
 * {@link ReentrantLock} (what the engine uses) or {@code synchronized}; one and two threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IdleStackLock {

    /** The locks compared. {@code REENTRANT} is what the engine uses today. */
    public enum Guard { REENTRANT, SPIN, SYNCHRONIZED }

    @Param
    Guard peer;

    private GuardedStack stack;

    /** Makes the guarded stack and fills it with 32 stand-in workers. */
    @Setup(Level.Trial)
    public void create() {
        stack = switch (peer) {
            case REENTRANT -> new LockGuarded(new ReentrantBareLock());
            case SPIN -> new LockGuarded(new SpinLock());
            case SYNCHRONIZED -> new SynchronizedGuarded();
        };
        for (int i = 0; i < 32; i++) {
            stack.push(new Object());
        }
    }

    /**
     * One pop+push cycle, one thread.
     *
     * @return the popped item, so it is not optimised away
     */
    @Benchmark
    @Threads(1)
    public Object oneThread() {
        return cycle();
    }

    /**
     * One pop+push cycle, two threads on the same stack.
     *
     * @return the popped item, so it is not optimised away
     */
    @Benchmark
    @Threads(2)
    public Object twoThreads() {
        return cycle();
    }

    private Object cycle() {
        Object worker = stack.pop();
        stack.push(worker);
        return worker;
    }

    /** An array stack of idle workers; subclasses guard each operation with their lock. */
    abstract static class GuardedStack {
        private final Object[] items = new Object[64];
        private int size;

        abstract Object pop();

        abstract void push(Object item);

        final Object popUnguarded() {
            Object item = items[--size];
            items[size] = null;
            return item;
        }

        final void pushUnguarded(Object item) {
            items[size++] = item;
        }
    }

    /** The two calls {@link LockGuarded} makes on a lock: all that {@link ReentrantLock} and {@link SpinLock} share. */
    interface BareLock {
        void lock();

        void unlock();
    }

    /** {@link ReentrantLock} itself, with nothing overridden, seen as a {@link BareLock}. */
    static final class ReentrantBareLock extends ReentrantLock implements BareLock {
    }

    /**
     * The stack guarded by an explicit lock, taken and released around each operation. A fork makes one kind of lock
     * only, so the JIT inlines its {@code lock()} and {@code unlock()} behind a type check.
     */
    static final class LockGuarded extends GuardedStack {
        private final BareLock lock;

        LockGuarded(BareLock lock) {
            this.lock = lock;
        }

        @Override
        Object pop() {
            lock.lock();
            try {
                return popUnguarded();
            } finally {
                lock.unlock();
            }
        }

        @Override
        void push(Object item) {
            lock.lock();
            try {
                pushUnguarded(item);
            } finally {
                lock.unlock();
            }
        }
    }

    static final class SynchronizedGuarded extends GuardedStack {
        @Override
        synchronized Object pop() {
            return popUnguarded();
        }

        @Override
        synchronized void push(Object item) {
            pushUnguarded(item);
        }
    }
}
