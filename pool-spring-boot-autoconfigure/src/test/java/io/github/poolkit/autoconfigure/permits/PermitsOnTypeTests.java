package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import org.aopalliance.intercept.MethodInterceptor;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.junit.jupiter.api.Timeout;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.PayloadApplicationEvent;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.Ordered;
import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.InitBinder;
import org.springframework.web.bind.annotation.ModelAttribute;

import io.github.poolkit.PoolOverloadException;
import io.github.poolkit.WeightedSemaphore;
import io.github.poolkit.annotation.Permits;
import io.github.poolkit.autoconfigure.PoolkitAutoConfiguration;
import reactor.core.publisher.Mono;

/**
 * {@link Permits} on a type guards each of its public methods, a method's own annotation wins, and the plain forms
 * keep working when Reactor is not on the class path.
 */
@Timeout(30)
class PermitsOnTypeTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(PoolkitAutoConfiguration.class, PermitsAutoConfiguration.class))
            .withPropertyValues("poolkit.semaphores.gpu.size=10").withBean(Guarded.class);

    @Test
    void guardsEachPublicMethodWithTheTypesAnnotation() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(guarded.plain(gpu)).isEqualTo(2);
            assertThat(guarded.reactive(gpu).block()).isEqualTo(2);
            assertThat(gpu.used()).isZero();
        });
    }

    @Test
    void aMethodsOwnAnnotationWins() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(guarded.own(gpu)).isEqualTo(5);
            assertThat(gpu.used()).isZero();
        });
    }

    /**
     * A controller's own {@code @ExceptionHandler}, {@code @InitBinder} and {@code @ModelAttribute} methods are not
     * requests: Spring calls them through the proxy while a request is handled (the exception handler after the
     * guarded call was refused), so the type's annotation does not guard them.
     */
    @Test
    void leavesAControllersHandlerSupportMethodsAlone() {
        runner.withBean(GuardedController.class).run(context -> {
            GuardedController controller = context.getBean(GuardedController.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(10); // a guarded call would now fail fast
            assertThat(controller.overloaded(new PoolOverloadException("full"))).isEqualTo("mine");
            controller.binder(null);
            assertThat(controller.attribute()).isEqualTo("attribute");
            assertThatThrownBy(controller::handle).isInstanceOf(PoolOverloadException.class);
            assertThatThrownBy(controller::namedHandler).isInstanceOf(PoolOverloadException.class);
            gpu.release(10);
            assertThat(controller.handle()).isEqualTo("handled");
        });
    }

    /**
     * The container's callbacks (a lifecycle's start, stop, isRunning and getPhase, an event listener's
     * onApplicationEvent, getOrder) are called through the proxy, and are no requests: refused while requests hold
     * every permit, a getPhase() at shutdown would stop the context's ordered stop. The type's annotation leaves them
     * alone.
     */
    @Test
    void leavesTheContainersCallbacksAlone() {
        runner.withBean(GuardedLifecycle.class).run(context -> {
            GuardedLifecycle bean = context.getBean(GuardedLifecycle.class);
            assertThat(AopUtils.isAopProxy(bean)).isTrue();
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(10);
            assertThat(bean.getPhase()).isEqualTo(7);
            assertThat(bean.isRunning()).isTrue();
            bean.onApplicationEvent(new PayloadApplicationEvent<>(this, "event"));
            assertThat(bean.getOrder()).isEqualTo(3);
            context.stop(); // calls getPhase, isRunning and stop through the proxy
            assertThat(bean.isRunning()).isFalse();
            assertThatThrownBy(bean::work).isInstanceOf(PoolOverloadException.class);
            gpu.release(10);
            assertThat(bean.work()).isEqualTo("worked");
        });
    }

    /** A method an application's interface declares is guarded, even where that interface extends a callback. */
    @Test
    void guardsTheMethodsOfAnApplicationsInterfaceThatExtendsACallback() {
        runner.withBean(GuardedProvider.class).run(context -> {
            Provider provider = context.getBean(Provider.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            gpu.acquire(10);
            assertThat(provider.getOrder()).as("Ordered's own method").isEqualTo(5);
            assertThatThrownBy(provider::charge).isInstanceOf(PoolOverloadException.class);
            gpu.release(10);
            assertThat(provider.charge()).isEqualTo("charged");
        });
    }

    /**
     * A bean that is already a proxy of a guarded interface, whose target class does not implement it (as Spring
     * Data's repositories and HTTP interface clients are), is guarded by the interface's annotation.
     */
    @Test
    void guardsAnInterfaceProxyWhoseTargetClassLacksTheInterface() {
        runner.withBean("api", Api.class, () -> {
            ProxyFactory factory = new ProxyFactory();
            factory.setTarget(new Object());
            factory.addInterface(Api.class);
            factory.addAdvice((MethodInterceptor) invocation -> "hello");
            return (Api) factory.getProxy();
        }).run(context -> {
            Api api = context.getBean(Api.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(api.hello()).isEqualTo("hello");
            gpu.acquire(10);
            assertThatThrownBy(api::hello).isInstanceOf(PoolOverloadException.class);
            gpu.release(10);
        });
    }

    /**
     * Two such proxies of two guarded interfaces that share an inherited method (as Spring Data repositories share
     * {@code findById}, over one target class) are each guarded by their own interface's annotation.
     */
    @Test
    void twoInterfaceProxiesSharingAMethodAreEachGuardedByTheirOwnAnnotation() {
        AtomicReference<WeightedSemaphore> gpuHolder = new AtomicReference<>();
        MethodInterceptor usedNow = invocation -> String.valueOf(gpuHolder.get().used());
        runner.withBean("two", TwoPermits.class, () -> (TwoPermits) proxy(TwoPermits.class, usedNow))
                .withBean("five", FivePermits.class, () -> (FivePermits) proxy(FivePermits.class, usedNow))
                .run(context -> {
                    gpuHolder.set(context.getBean("gpu", WeightedSemaphore.class));
                    assertThat(context.getBean(TwoPermits.class).usedNow()).isEqualTo("2");
                    assertThat(context.getBean(FivePermits.class).usedNow()).isEqualTo("5");
                    assertThat(context.getBean(TwoPermits.class).usedNow()).isEqualTo("2");
                });
    }

    private static Object proxy(Class<?> api, MethodInterceptor advice) {
        ProxyFactory factory = new ProxyFactory();
        factory.setTarget(new Object());
        factory.addInterface(api);
        factory.addAdvice(advice);
        return factory.getProxy();
    }

    /** A method two guarded interfaces inherit. */
    public interface UsesGpu {

        String usedNow();
    }

    /** Guarded with 2 permits. */
    @Permits(value = "gpu", weight = "2")
    public interface TwoPermits extends UsesGpu {
    }

    /** Guarded with 5 permits. */
    @Permits(value = "gpu", weight = "5")
    public interface FivePermits extends UsesGpu {
    }

    /**
     * A method whose declared return type is a type variable that the bean's class binds to {@code Mono} holds its
     * permits per subscription, as a method declared to return {@code Mono} does.
     */
    @Test
    void aMonoBehindATypeVariableHoldsThePermitsPerSubscription() {
        runner.withBean(MonoGateway.class).run(context -> {
            MonoGateway gateway = context.getBean(MonoGateway.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            Mono<Long> call = gateway.call(gpu);
            assertThat(gpu.used()).as("nothing held before a subscription").isZero();
            assertThat(call.block()).as("held while it runs").isEqualTo(2);
            assertThat(gpu.used()).isZero();
        });
    }

    /** A guarded interface, implemented by a proxy only. */
    @Permits(value = "gpu", weight = "2")
    public interface Api {

        String hello();
    }

    /** Calls through a type variable, which a subclass binds. */
    public abstract static class Gateway<R> {

        public R call(WeightedSemaphore gpu) {
            return make(gpu);
        }

        protected abstract R make(WeightedSemaphore gpu);
    }

    /** Binds the variable to a {@code Mono}, inheriting {@code call}; guarded. */
    @Permits(value = "gpu", weight = "2")
    public static class MonoGateway extends Gateway<Mono<Long>> {

        @Override
        protected Mono<Long> make(WeightedSemaphore gpu) {
            return Mono.fromCallable(gpu::used);
        }
    }

    /** An application's interface that extends a callback interface. */
    interface Provider extends Ordered {

        String charge();
    }

    /** Implements it; the class is guarded. */
    @Permits(value = "gpu", weight = "2")
    static class GuardedProvider implements Provider {

        @Override
        public String charge() {
            return "charged";
        }

        @Override
        public int getOrder() {
            return 5;
        }
    }

    /** A lifecycle and event listener whose class is guarded. */
    @Permits(value = "gpu", weight = "2")
    static class GuardedLifecycle implements SmartLifecycle, ApplicationListener<PayloadApplicationEvent<String>>,
            Ordered {

        private volatile boolean running = true;

        public String work() {
            return "worked";
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return 7;
        }

        @Override
        public void onApplicationEvent(PayloadApplicationEvent<String> event) {
        }

        @Override
        public int getOrder() {
            return 3;
        }
    }

    @Test
    void leavesNonPublicMethodsAndObjectsMethodsAlone() {
        runner.run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            WeightedSemaphore gpu = context.getBean("gpu", WeightedSemaphore.class);
            assertThat(guarded.notPublic(gpu)).isZero();
            gpu.acquire(10); // a guarded call would now fail fast
            assertThat(guarded.toString()).isEqualTo("guarded");
            gpu.release(10);
        });
    }

    /** Every public method holds 2 permits of "gpu", unless it says otherwise. */
    @Permits(value = "gpu", weight = "2")
    static class Guarded {

        public long plain(WeightedSemaphore gpu) {
            return gpu.used();
        }

        public Mono<Long> reactive(WeightedSemaphore gpu) {
            return Mono.fromCallable(gpu::used);
        }

        public CompletableFuture<String> stage(CompletableFuture<String> result) {
            return result;
        }

        @Permits(value = "gpu", weight = "5")
        public long own(WeightedSemaphore gpu) {
            return gpu.used();
        }

        long notPublic(WeightedSemaphore gpu) {
            return gpu.used();
        }

        @Override
        public String toString() {
            return "guarded";
        }
    }

    /** A controller guarded as a whole, with the methods Spring calls around its handlers. */
    @Permits(value = "gpu", weight = "10")
    public static class GuardedController {

        public String handle() {
            return "handled";
        }

        /** A handler all the same: its {@code @ModelAttribute} only names where its result goes. */
        @GetMapping("/named")
        @ModelAttribute("named")
        public String namedHandler() {
            return "named";
        }

        @ExceptionHandler(PoolOverloadException.class)
        public String overloaded(PoolOverloadException ex) {
            return "mine";
        }

        @InitBinder
        public void binder(WebDataBinder binder) {
        }

        @ModelAttribute("attribute")
        public String attribute() {
            return "attribute";
        }
    }
}
