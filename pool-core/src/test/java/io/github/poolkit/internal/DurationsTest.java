package io.github.poolkit.internal;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class DurationsTest {

    @Test
    void convertsDurationsThatFitExactly() {
        assertThat(Durations.toNanosSaturated(Duration.ZERO)).isZero();
        assertThat(Durations.toNanosSaturated(Duration.ofMillis(1500))).isEqualTo(1_500_000_000L);
        assertThat(Durations.toNanosSaturated(Duration.ofNanos(-7))).isEqualTo(-7L);
        assertThat(Durations.toNanosSaturated(Duration.ofNanos(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(Durations.toNanosSaturated(Duration.ofNanos(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void saturatesWhereDurationToNanosWouldOverflow() {
        assertThat(Durations.toNanosSaturated(Duration.ofNanos(Long.MAX_VALUE).plusNanos(1)))
                .isEqualTo(Long.MAX_VALUE);
        assertThat(Durations.toNanosSaturated(Duration.ofSeconds(Long.MAX_VALUE))).isEqualTo(Long.MAX_VALUE);
        assertThat(Durations.toNanosSaturated(Duration.ofNanos(Long.MIN_VALUE).minusNanos(1)))
                .isEqualTo(Long.MIN_VALUE);
        assertThat(Durations.toNanosSaturated(Duration.ofSeconds(Long.MIN_VALUE))).isEqualTo(Long.MIN_VALUE);
    }
}
