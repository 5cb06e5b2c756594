package io.github.poolkit.autoconfigure.actuate.executors;

/** An executor of a kind poolkit does not know: only its type is listed, nothing can change. */
record TypeOnlyAdapter(String type) implements ExecutorAdapter {

    /** {@return that poolkit does not know how to size this kind, and where its sizes are set instead} */
    @Override
    public String whyCapacityIsFixed(String type) {
        return "poolkit does not know how to size a " + type + "; set its size in the code that creates it";
    }

    /** {@return as {@link #whyCapacityIsFixed}} */
    @Override
    public String whyCoreSizeIsFixed(String type) {
        return whyCapacityIsFixed(type);
    }
}
