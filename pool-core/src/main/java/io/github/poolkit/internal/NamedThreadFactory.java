package io.github.poolkit.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/** The default worker factory: non-daemon platform threads named {@code <name>-<n>}, n counting from 1. */
public final class NamedThreadFactory implements ThreadFactory {

    private final String prefix;
    private final boolean daemon;
    private final AtomicInteger next = new AtomicInteger(1);

    /**
     * @param name   the prefix of the thread names
     * @param daemon whether the threads are daemons
     */
    public NamedThreadFactory(String name, boolean daemon) {
        this.prefix = name + "-";
        this.daemon = daemon;
    }

    @Override
    public Thread newThread(Runnable r) {
        Thread t = new Thread(r, prefix + next.getAndIncrement());
        t.setDaemon(daemon);
        return t;
    }
}
