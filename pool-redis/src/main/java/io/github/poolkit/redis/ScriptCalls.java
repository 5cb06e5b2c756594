package io.github.poolkit.redis;

import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.async.RedisScriptingAsyncCommands;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * How one run of the semaphore's script reaches Redis: {@code EVALSHA} by the script's digest, or {@code EVAL} with
 * its source. {@link #of} sends through one Lettuce connection. {@link RedisPermitSemaphore}'s package-private
 * constructor takes a decorator of it: what lies between the semaphore and Redis (a link that loses answers, repeats
 * calls, or goes silent) is simulated there, not inside the semaphore.
 */
interface ScriptCalls {

    /** {@return Redis's answer to {@code EVALSHA sha keys argv}, or its failure (NOSCRIPT: Redis lost the script)} */
    CompletionStage<List<Object>> evalsha(String sha, String[] keys, String[] argv);

    /** {@return Redis's answer to {@code EVAL source keys argv}, or its failure} */
    CompletionStage<List<Object>> eval(String source, String[] keys, String[] argv);

    /** {@return the calls sent on one connection, in the order made} */
    static ScriptCalls of(RedisScriptingAsyncCommands<String, String> commands) {
        return new ScriptCalls() {
            @Override
            public CompletionStage<List<Object>> evalsha(String sha, String[] keys, String[] argv) {
                return commands.evalsha(sha, ScriptOutputType.MULTI, keys, argv);
            }

            @Override
            public CompletionStage<List<Object>> eval(String source, String[] keys, String[] argv) {
                return commands.eval(source, ScriptOutputType.MULTI, keys, argv);
            }
        };
    }
}
