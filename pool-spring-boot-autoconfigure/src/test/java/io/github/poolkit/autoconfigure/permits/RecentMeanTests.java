package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The recent mean: all samples until a window fills, then the latest closed window of at least 64. */
class RecentMeanTests {

    @Test
    void averagesEverySampleUntilAWindowCloses() {
        RecentMean mean = new RecentMean();
        assertThat(mean.meanNanos()).isEqualTo(-1);
        mean.record(10);
        mean.record(30);
        mean.record(-5); // a clock that went back: ignored
        assertThat(mean.meanNanos()).isEqualTo(20);
    }

    @Test
    void followsTheLatestWindowOnceOneCloses() {
        RecentMean mean = new RecentMean();
        for (int i = 0; i < RecentMean.WINDOW; i++) {
            mean.record(100);
        }
        assertThat(mean.meanNanos()).isEqualTo(100); // the first window closes
        for (int i = 0; i < RecentMean.WINDOW - 1; i++) {
            mean.record(1000);
        }
        assertThat(mean.meanNanos()).isEqualTo(100); // the next one is not full yet
        mean.record(1000);
        assertThat(mean.meanNanos()).isEqualTo(1000); // now it is, and the old samples no longer count
    }
}
