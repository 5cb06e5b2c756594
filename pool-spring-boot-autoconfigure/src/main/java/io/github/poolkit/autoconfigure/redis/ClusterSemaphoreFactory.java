package io.github.poolkit.autoconfigure.redis;

import io.github.poolkit.autoconfigure.InvalidPoolkitPropertyException;
import io.github.poolkit.autoconfigure.PoolkitLifecycle;
import io.github.poolkit.autoconfigure.PoolkitProperties;
import io.github.poolkit.autoconfigure.SemaphoreListeners;
import io.github.poolkit.redis.RedisPermitSemaphore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Builds the cluster semaphore beans registered by {@link ClusterSemaphoresRegistrar} from the bound
 * {@link PoolkitProperties}, on the application's {@link RedisConnectionFactory}.
 *
 * <p>On context close it closes them (withdrawing their waiting requests) after the web server and poolkit's pools
 * have drained, whose work may still hold or take permits, and before the connection factory stops: the factory is
 * a lifecycle bean that shuts its Lettuce client down in {@code stop()}, before any bean is destroyed. So this
 * factory's phase is below {@link PoolkitLifecycle#PHASE} (a higher phase stops earlier), and it depends on the
 * connection factory, whose stop therefore stops it first.
 *
 * <p>A context {@code stop()} or {@code pause()} outside a close pauses them instead
 * ({@link RedisPermitSemaphore#pause()}), in the same place of the stop: their waiting requests are withdrawn and
 * their connections closed before the connection factory shuts its Lettuce client down; the leases they hold are kept
 * but not renewed (a holder is told of a loss once its lease has gone unrenewed for the lease time). {@code start()}
 * resumes them ({@link RedisPermitSemaphore#resume()}) on the client that the connection factory, started before them
 * (a dependency, in a lower phase), has made anew, and they renew what is still held at once: the beans of a context
 * stopped and started (a checkpoint and its restore) work again, as poolkit's pools do.
 *
 * <p>A semaphore whose Redis cannot be reached at {@code start()} stays paused (its calls fail, saying so) and the
 * start goes on, so that the pools and the web server, which start after this factory, come back all the same; it is
 * tried again in the background, on a daemon thread (after 1 s, then twice as long each time, at most every 30 s),
 * until it resumes or the context stops or starts again. The start tries until the first failure (the semaphores
 * share one Redis), so a Redis that is down holds it up by one failed connection (a connect timeout, plus a command
 * timeout at most). Each failure is logged.
 *
 * <p>Invariants: a close is told from a stop by the context's {@code isClosed()}, which is set before a close stops
 * any lifecycle bean (a refresh that fails stops them before that, so they are paused there, and closed by their
 * destroy methods). A start resumes what the last {@code stop()} paused ({@link #paused}; a semaphore the
 * application closed stays closed). A resume runs only within the start it is for ({@link #generation}), checked
 * under this factory's lock, held for one resume at a time, which {@code stop()} takes to mark it stopped: so no
 * retry resumes a semaphore once a later stop began, and a stop waits for one resume of the retry at most. A
 * {@code start()} and a {@code stop()} on different threads run one after the other ({@link #moves}): a stop that
 * comes during a start waits for it (its resumes, and one failed connection at most).
 */
public class ClusterSemaphoreFactory implements SmartLifecycle, ApplicationContextAware {

    private static final Log LOG = LogFactory.getLog(ClusterSemaphoreFactory.class);
    private static final Duration RETRY_FIRST = Duration.ofSeconds(1);
    private static final Duration RETRY_MAX = Duration.ofSeconds(30);

    private final PoolkitProperties properties;
    private final ConfigurableListableBeanFactory beans;
    private final SemaphoreListeners semaphoreListeners;
    private final List<RedisPermitSemaphore> created = new CopyOnWriteArrayList<>();
    /** The semaphores the last {@code stop()} paused and no start has resumed yet; guarded by {@code this}. */
    private final List<RedisPermitSemaphore> paused = new ArrayList<>();
    private ApplicationContext context;
    /** Written under {@code this}. */
    private volatile boolean running;
    /** Counts starts and stops: a resume, and a background retry, goes on only within its own. Guarded by this. */
    private long generation;
    /**
     * Held by {@code start()} and {@code stop()} throughout, so that one called on another thread meanwhile waits
     * for the other to end (a start never runs between a stop's pauses); the background retry never takes it.
     */
    private final Object moves = new Object();

    ClusterSemaphoreFactory(PoolkitProperties properties, ConfigurableListableBeanFactory beans,
            SemaphoreListeners semaphoreListeners) {
        this.properties = properties;
        this.beans = beans;
        this.semaphoreListeners = semaphoreListeners;
    }

    /**
     * Connects the cluster semaphore {@code name} ({@code poolkit.semaphores.<name>}).
     *
     * @param name the key, which is also the bean name and the semaphore's name in Redis
     * @return the semaphore
     * @throws IllegalStateException if the application has no Redis connection factory
     * @throws InvalidPoolkitPropertyException if its size or lease time cannot be used
     */
    public RedisPermitSemaphore create(String name) {
        List<InvalidPoolkitPropertyException> problems = ClusterSemaphoreChecks.problems(properties, name);
        if (!problems.isEmpty()) {
            throw problems.get(0);
        }
        long size = ClusterSemaphoreChecks.size(properties, name);
        Duration leaseTime = properties.getSemaphores().get(name).getLeaseTime();
        String factoryName = connectionFactoryName(name);
        RedisConnectionFactory redis = beans.getBean(factoryName, RedisConnectionFactory.class);
        // stopped and destroyed before its connection factory, so that close() can still withdraw waiting requests
        beans.registerDependentBean(factoryName, name);
        beans.registerDependentBean(factoryName, ClusterSemaphoresRegistrar.FACTORY);
        if (redis instanceof LettuceConnectionFactory lettuce && !lettuce.isRunning()) {
            lettuce.start();
        }
        // the metrics listener, as a local semaphore's: the acquire timer is attached to it once meters are bound
        RedisPermitSemaphore semaphore = RedisPermitSemaphore.builder(redis, name).size(size)
                .leaseTime(leaseTime).listener(semaphoreListeners.listenerFor(name)).build();
        created.add(semaphore);
        return semaphore;
    }

    /**
     * The name of the application's Redis connection factory, chosen as Spring injects one (autowire candidates only,
     * then {@code @Primary}, {@code @Fallback} and priority).
     */
    private String connectionFactoryName(String semaphore) {
        try {
            return beans.resolveNamedBean(RedisConnectionFactory.class).getBeanName();
        }
        catch (NoUniqueBeanDefinitionException ex) {
            throw new IllegalStateException("poolkit.semaphores." + semaphore + ".scope=cluster needs one Redis"
                    + " connection factory, but the application has several, " + ex.getBeanNamesFound() + ", and no"
                    + " single @Primary one: mark the one to use @Primary");
        }
        catch (NoSuchBeanDefinitionException ex) {
            throw new IllegalStateException("poolkit.semaphores." + semaphore + ".scope=cluster needs Redis, but the"
                    + " application has no RedisConnectionFactory: add spring-boot-starter-data-redis and set"
                    + " spring.data.redis.host/port (or use scope: local)");
        }
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /**
     * Resumes the semaphores that the last {@code stop()} paused (one the application closed stays closed). One
     * whose Redis cannot be reached stays paused and is tried again in the background (see the class documentation);
     * the start goes on.
     */
    @Override
    public void start() {
        synchronized (moves) {
            long started;
            synchronized (this) {
                running = true;
                started = ++generation;
            }
            if (resumePaused(started)) {
                Thread.ofPlatform().daemon().name("poolkit-semaphore-resume").start(() -> retryResumes(started));
            }
        }
    }

    /**
     * Resumes what is paused, one semaphore at a time under the lock (so that a stop waits for one resume at most),
     * forgetting each one resumed. At the first failure, which is logged, it leaves the rest for later: they share the
     * same Redis, and each attempt may cost a connect timeout.
     *
     * @param started the generation of the start this is for
     * @return whether some are left paused for a retry of this generation (false too once a later stop or start came)
     */
    private boolean resumePaused(long started) {
        List<RedisPermitSemaphore> toResume;
        synchronized (this) {
            toResume = List.copyOf(paused);
        }
        for (RedisPermitSemaphore semaphore : toResume) {
            synchronized (this) {
                if (generation != started) {
                    return false;
                }
                try {
                    semaphore.resume();
                    paused.remove(semaphore);
                }
                catch (RuntimeException ex) {
                    LOG.warn("Cluster semaphore '" + semaphore.name() + "' could not resume after the context's"
                            + " start: it stays paused (its calls fail) and is tried again in the background", ex);
                    break;
                }
            }
        }
        synchronized (this) {
            return generation == started && !paused.isEmpty();
        }
    }

    /** Tries the paused semaphores again, at growing intervals, until all resumed or a later stop or start came. */
    private void retryResumes(long started) {
        for (Duration wait = RETRY_FIRST; ; wait = min(wait.multipliedBy(2), RETRY_MAX)) {
            try {
                Thread.sleep(wait);
            }
            catch (InterruptedException ex) {
                return;
            }
            if (!resumePaused(started)) {
                synchronized (this) {
                    if (generation == started) {
                        LOG.info("Cluster semaphores resumed after the context's start: Redis is reachable again");
                    }
                }
                return;
            }
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * On a context close, closes every semaphore made here (a second close, by the bean's destroy method, does
     * nothing); on a plain stop or pause, pauses them, for {@link #start()} to resume.
     */
    @Override
    public void stop() {
        boolean closing = context instanceof ConfigurableApplicationContext configurable && configurable.isClosed();
        synchronized (moves) {
            synchronized (this) { // waits for a retry's resume under way: none comes after this
                running = false;
                generation++;
                paused.clear();
                if (!closing) {
                    paused.addAll(created);
                }
            }
            for (RedisPermitSemaphore semaphore : created) {
                if (closing) {
                    semaphore.close();
                }
                else {
                    semaphore.pause();
                }
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /** {@return a phase stopped after poolkit's pools have drained (see the class documentation)} */
    @Override
    public int getPhase() {
        return PoolkitLifecycle.PHASE - 1024;
    }
}
