package io.github.poolkit.autoconfigure.actuate.executors;

import org.springframework.scheduling.concurrent.ThreadPoolTaskExecutor;

/**
 * Spring's {@link ThreadPoolTaskExecutor}: capacity and coreSize are its max and core pool sizes, changed through its
 * own setters (which reach the running pool). The live figures come from the {@code ThreadPoolExecutor} inside it,
 * which throws until the executor is initialised: those figures are then absent, not Spring's assumed defaults.
 */
final class ThreadPoolTaskExecutorAdapter extends DescribedAdapter {

    ThreadPoolTaskExecutorAdapter(ThreadPoolTaskExecutor executor) {
        super(executor, new Setting(executor::getMaxPoolSize, executor::setMaxPoolSize),
                new Setting(executor::getCorePoolSize, executor::setCorePoolSize),
                LiveFigures.of(executor::getThreadPoolExecutor));
    }
}
