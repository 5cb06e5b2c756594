package io.github.poolkit.autoconfigure;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Hands each bean poolkit creates a listener at creation time and lets listeners be attached to it later. A pool's or
 * semaphore's listener is fixed when it is created, long before Micrometer binds its meters; so every bean gets a
 * forwarding listener from {@link #listenerFor(String)}, and the metrics support calls {@link #attach} once a registry
 * is bound.
 *
 * <p>Implementation overview: one forwarder per bean name in a concurrent map; each forwarder keeps its targets in a
 * {@link CopyOnWriteArrayList}, so the notifying threads iterate a stable snapshot without locking while attachment
 * (rare) copies. Events that happen before anything is attached are dropped: they predate the meters. Attaching
 * happens-before every event the attached listener then receives (the list's volatile publication).
 *
 * @param <L> the listener type
 */
public abstract class AttachableListeners<L> {

    private final ConcurrentMap<String, Forwarder<L>> forwarders = new ConcurrentHashMap<>();

    /** For subclasses. */
    protected AttachableListeners() {
    }

    /**
     * Makes the listener that a bean is given, forwarding to the listeners attached to it.
     *
     * @param targets the attached listeners, a live list to iterate at each event
     * @return a listener that forwards each event to every target, in order
     */
    protected abstract L fanOut(List<L> targets);

    /**
     * Gives a bean its listener.
     *
     * @param beanName the bean name of a pool or semaphore
     * @return the listener to give that bean at creation; the same one on every call with that name
     */
    public L listenerFor(String beanName) {
        return forwarders.computeIfAbsent(beanName, name -> {
            List<L> targets = new CopyOnWriteArrayList<>();
            return new Forwarder<>(targets, fanOut(targets));
        }).listener();
    }

    /**
     * Tells whether a bean reports its events.
     *
     * @param beanName the bean name of a pool or semaphore
     * @return whether that bean was given a listener by {@link #listenerFor(String)}, so that it reports its events
     */
    public boolean isReporting(String beanName) {
        return forwarders.containsKey(beanName);
    }

    /**
     * Makes {@code listener} receive every later event of the bean named {@code beanName}, if that bean was given a
     * listener by {@link #listenerFor(String)}; other beans report nothing here (the application's pools and
     * schedulers are reached through {@link PoolBeanListeners}).
     *
     * @param beanName the bean name
     * @param listener the listener; must be fast and must not throw
     * @return whether the listener was attached
     */
    public boolean attach(String beanName, L listener) {
        Forwarder<L> forwarder = forwarders.get(beanName);
        if (forwarder == null) {
            return false;
        }
        forwarder.targets().add(listener);
        return true;
    }

    /**
     * Tells every target of an event in order, also when one throws (a listener that publishes to the application's
     * own listeners may throw anything, an {@code Error} too): the others, such as the meters, still count it. Then
     * throws the first throwable, the later ones suppressed by it, for the pool or semaphore to log as it logs any
     * listener that throws.
     *
     * @param targets the attached listeners
     * @param event   tells one listener
     * @param <L>     the listener type
     */
    protected static <L> void tellEach(List<L> targets, Consumer<L> event) {
        Throwable first = null;
        for (L target : targets) {
            try {
                event.accept(target);
            }
            catch (Throwable ex) {
                if (first == null) {
                    first = ex;
                }
                else if (ex != first) { // two listeners may throw one instance (the event's own failure, say)
                    first.addSuppressed(ex);
                }
            }
        }
        if (first instanceof RuntimeException ex) {
            throw ex;
        }
        if (first instanceof Error error) {
            throw error;
        }
        if (first != null) { // a checked exception thrown sneakily
            throw new UndeclaredThrowableException(first);
        }
    }

    private record Forwarder<L>(List<L> targets, L listener) {
    }
}
