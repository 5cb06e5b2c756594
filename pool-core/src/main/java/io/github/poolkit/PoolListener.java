package io.github.poolkit;

/**
 * Receives one call for each task a pool accepts or refuses, for metrics and tracing: given in the options
 * ({@link PoolOptions.Builder#listener(PoolListener)}) or added to a running pool ({@link Pool#addListener},
 * {@link DelayScheduler#addListener}). The Spring Boot starter uses it for the task timers and the overdue reports.
 *
 * <p>Calls are made on the thread that submitted the task ({@link #taskRejected}), on the worker that ran it
 * ({@link #taskFinished}), or on the pool's overdue reporting thread ({@link #taskOverdue}); they must be fast and
 * must not throw (anything thrown is logged and ignored). A pool with no listener pays nothing for this hook; with
 * one, each task costs one small allocation to carry its submit time.
 */
public interface PoolListener {

    /**
     * A task finished on a worker.
     *
     * @param waitedNanos time from the call to {@code execute} until a worker started the task (time blocked in
     *                    {@code execute} plus time in the queue)
     * @param ranNanos    time the task ran
     * @param failure     what the task threw, or {@code null} when it completed normally; for a task given to
     *                    {@code submit}, {@code invokeAll} or {@code invokeAny}, what it threw, which its future
     *                    also reports (such a task is not reported here if it was cancelled before it started, and
     *                    is told here before its future completes, so a record made here is seen by whoever sees
     *                    the future done; a {@code cancel(true)} that lands meanwhile still cancels the future and
     *                    interrupts this call's thread)
     */
    default void taskFinished(long waitedNanos, long ranNanos, Throwable failure) {
    }

    /**
     * A task was refused: the pool was closed or overloaded, the caller was interrupted while blocked, or no worker
     * thread could be started for it.
     *
     * @param reason the exception the caller receives
     */
    default void taskRejected(RuntimeException reason) {
    }

    /**
     * A task is overdue: it has run longer than {@link PoolOptions#runTimeout()}, or waited to start longer than
     * {@link PoolOptions#queueTimeout()}. Called once per task and kind, on a thread of the pool's own (never
     * the worker's; named {@code poolkit-overdue-<pool>-<n>}), soon after the task was found overdue while it
     * still ran or waited (by the time the listener hears of it, it may have ended); a slow listener delays this
     * pool's later reports, not other pools'. At most 4096 reports wait for a listener that has fallen behind:
     * tasks found overdue beyond that are counted ({@link PoolStats#overdue()}) but not reported, and a
     * {@code WARNING} is logged through {@code System.Logger} {@code io.github.poolkit}. Each pool reports on its own
     * thread, so a listener given to several pools (or to a {@code MultiPool}, whose pools each report) may be
     * called by several threads at once.
     *
     * @param task the pool, the kind, the task, its worker, how long it has run or waited, and the worker's stack
     */
    default void taskOverdue(OverdueTask task) {
    }
}
