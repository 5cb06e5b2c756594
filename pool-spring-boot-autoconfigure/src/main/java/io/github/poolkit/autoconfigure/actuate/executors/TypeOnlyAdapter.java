package io.github.poolkit.autoconfigure.actuate.executors;

/** An executor of a kind poolkit does not know: only its type is listed, nothing can change. */
record TypeOnlyAdapter(String type) implements ExecutorAdapter {
}
