package io.github.poolkit.autoconfigure.permits;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The recent mean: all samples until a window fills, then the latest closed window of at least 64, closed by a read or
 * by a record a period after the previous close.
 */
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
    void afterACalmPeriodTheMeanCoversItsLastSecondNotAllOfIt() {
        long[] now = {0};
        RecentMean mean = new RecentMean(() -> now[0]);
        for (int second = 0; second < 60; second++) { // a calm minute of fast calls, nobody reading the mean
            now[0] = second * RecentMean.PERIOD_NANOS;
            for (int i = 0; i < RecentMean.WINDOW; i++) {
                mean.record(10);
            }
        }
        now[0] += RecentMean.PERIOD_NANOS;
        mean.record(10_000); // the first slow call closes the calm second's window
        for (int i = 0; i < RecentMean.WINDOW; i++) { // then a window's worth more, and the first 429 comes
            mean.record(10_000);
        }
        assertThat(mean.meanNanos()).as("the slow calls', not the calm minute's (about 170 ns)").isEqualTo(10_000);
    }

    @Test
    void aFullWindowStaysOpenForAPeriodWhileNobodyReads() {
        long[] now = {0};
        RecentMean mean = new RecentMean(() -> now[0]);
        for (int i = 0; i < 3 * RecentMean.WINDOW; i++) {
            mean.record(100);
        }
        now[0] = RecentMean.PERIOD_NANOS - 1;
        mean.record(100);
        now[0] = RecentMean.PERIOD_NANOS;
        mean.record(100); // closes the window: its 194 samples
        for (int i = 0; i < RecentMean.WINDOW - 1; i++) {
            mean.record(700);
        }
        assertThat(mean.meanNanos()).as("the closed window; the open one is not full").isEqualTo(100);
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
