package io.github.poolkit.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;

import io.github.poolkit.PermitSemaphore;
import io.github.poolkit.redis.RedisPermitSemaphore;
import io.github.poolkit.redis.RedisServer;
import io.github.poolkit.sample.ApiClient.Answer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The {@code cluster} profile: two instances of the sample on one real {@code redis-server} share one
 * {@code image-rendering} budget, so a rendering on one leaves less for the other.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterProfileTest {

    @RegisterExtension
    static final RedisServer redis = new RedisServer();

    private ConfigurableApplicationContext start() {
        return new SpringApplicationBuilder(SampleApplication.class).profiles("cluster")
                .run("--server.port=0", "--spring.data.redis.port=" + redis.port(),
                        "--spring.data.redis.host=127.0.0.1");
    }

    private static int port(ConfigurableApplicationContext context) {
        return ((WebServerApplicationContext) context).getWebServer().getPort();
    }

    @Test
    void twoInstancesShareOneRenderBudget() {
        try (ConfigurableApplicationContext first = start(); ConfigurableApplicationContext second = start()) {
            assertThat(first.getBean("image-rendering", PermitSemaphore.class))
                    .isInstanceOf(RedisPermitSemaphore.class);
            ApiClient one = new ApiClient(port(first));
            ApiClient two = new ApiClient(port(second));

            // A rendering waits for its permits at most sample.render.max-wait (500 ms) before it is refused.
            Answer big = one.post("/api/render?sizeMb=400&millis=3000");
            assertThat(big.status()).isEqualTo(202);
            assertThat(two.post("/api/render?sizeMb=200&millis=10").status())
                    .as("only 112 MB are left in the shared budget").isEqualTo(429);
            assertThat(two.post("/api/render?sizeMb=100&millis=10").status()).isEqualTo(202);

            Answer health = two.get("/actuator/health");
            assertThat(health.json().path("components").path("redis").path("status").asString()).isEqualTo("UP");
        }
    }

    @Test
    void whileRedisDoesNotAnswerARenderingIsRefusedWith503AndRetryAfterAndTakesNothing() throws Exception {
        try (ConfigurableApplicationContext app = start()) {
            ApiClient client = new ApiClient(port(app));
            PermitSemaphore budget = app.getBean("image-rendering", PermitSemaphore.class);
            redis.pause(); // the semaphore's calls time out after its command timeout (2 s)
            Answer refused;
            try {
                refused = client.post("/api/render?sizeMb=100&millis=10");
            }
            finally {
                redis.resume();
            }
            assertThat(refused.status()).isEqualTo(503);
            assertThat(refused.retryAfter()).isEqualTo("1");
            assertThat(refused.body()).contains("retry shortly");
            assertThat(budget.used()).isZero();
            assertThat(client.post("/api/render?sizeMb=100&millis=10").status()).isEqualTo(202);
        }
    }
}
