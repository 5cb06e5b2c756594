package io.github.poolkit.sample.jobs;

/**
 * What happened to a batch of jobs submitted to a pool: each job was either accepted (it will run exactly once) or
 * rejected at once by the pool's back-pressure ({@code PoolOverloadException}).
 *
 * @param pool      the pool's bean name
 * @param requested how many jobs the client asked for
 * @param accepted  how many the pool took
 * @param rejected  how many the pool refused; {@code accepted + rejected == requested}
 * @param millis    how long each accepted job works
 */
public record BatchResult(String pool, int requested, int accepted, int rejected, long millis) {
}
