package io.github.poolkit.autoconfigure.actuate;

import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.poolkit.autoconfigure.actuate.executors.ExecutorAdapter;

/**
 * A run-time change of an executor poolkit did not create: its {@code capacity} (positive) and {@code coreSize}
 * ({@code >= 0}), made through the executor's own setters, where its kind can change them.
 *
 * <p>Rules, so that an {@link InvalidSettingException} means nothing changed (but for the one case its message says):
 * <ul>
 *   <li>Every field is checked before the first setter: a field other than these two, a write to an executor that
 *       is shut down, a field this executor cannot change, a value that is not a whole number, a negative one, and a
 *       core size above the capacity (the new one, or the current one when only the core size is given) are
 *       refused.</li>
 *   <li>The core size is never above the capacity at any moment: when both change, the capacity is raised first if
 *       the new core size is above the current capacity, else the core size is set first.</li>
 *   <li>When the executor's second setter throws anyway, the first is undone before the refusal; should the undo
 *       throw too (the application changed the executor meanwhile), the refusal says which size was left changed,
 *       and to what.</li>
 *   <li>An executor whose core size is its capacity ({@link ExecutorAdapter#coreSizeIsCapacity()}, a scheduled
 *       pool) takes either field, or both when equal, as its one size (positive), set by one setter.</li>
 *   <li>Changes through this class are made one at a time, so that two writes at once cannot interleave their
 *       checks and setters (the application's own calls to the setters are not ordered with them).</li>
 * </ul>
 */
public final class ExecutorChange {

    /** Orders the changes: each one reads the current sizes, checks and sets them as a whole. */
    private static final Object CHANGES = new Object();

    private final WriteValues values;

    /**
     * Creates a change from the fields of a write, by name; a {@code null} value was not given.
     *
     * @param fields the fields of the write, such as {@code capacity} and {@code coreSize}
     */
    public ExecutorChange(Map<String, @Nullable String> fields) {
        this.values = new WriteValues(fields, fields.keySet());
    }

    /**
     * Applies the change.
     *
     * @param executor the executor's adapter
     * @throws InvalidSettingException naming the field, when the change cannot be made; nothing is changed then, but
     *                                 where its message says that undoing a first change failed
     */
    public void applyTo(ExecutorAdapter executor) {
        synchronized (CHANGES) {
            checkAndSet(executor);
        }
    }

    private void checkAndSet(ExecutorAdapter executor) {
        String type = ExecutorDescriptor.read(executor::type);
        for (String field : values.fields()) {
            require(field.equals(ExecutorAdapter.CAPACITY) || field.equals(ExecutorAdapter.CORE_SIZE), field,
                    "a " + type + " takes only capacity and coreSize; " + field + " belongs to poolkit's own pools "
                            + "and semaphores");
        }
        require(!values.fields().isEmpty(), ExecutorAdapter.CAPACITY, "nothing to change: give capacity or coreSize");
        require(!executor.isShutdown(), values.fields().iterator().next(), "the " + type + " is shut down: it runs no"
                + " more tasks, so a new size would change nothing");
        String wholeNumber = "a whole number such as 16 for a " + type;
        Integer capacity = values.parse(ExecutorAdapter.CAPACITY, Integer::valueOf, wholeNumber);
        Integer coreSize = values.parse(ExecutorAdapter.CORE_SIZE, Integer::valueOf, wholeNumber);
        if (capacity != null) {
            require(executor.canSetCapacity(), ExecutorAdapter.CAPACITY, executor.whyCapacityIsFixed(type));
            require(capacity > 0, ExecutorAdapter.CAPACITY, "must be positive, was " + capacity
                    + ((capacity == -1) ? " (-1 is how an unlimited capacity reads, not a size; for no limit give the"
                    + " largest size the " + type + " takes, such as " + Integer.MAX_VALUE + ")" : ""));
        }
        if (coreSize != null) {
            require(executor.canSetCoreSize(), ExecutorAdapter.CORE_SIZE, executor.whyCoreSizeIsFixed(type));
            require(coreSize >= 0, ExecutorAdapter.CORE_SIZE, "cannot be negative, was " + coreSize);
        }
        if (executor.coreSizeIsCapacity()) {
            setOneSize(executor, type, capacity, coreSize);
            return;
        }
        Integer currentCapacity = ExecutorDescriptor.read(executor::capacity);
        Integer currentCore = ExecutorDescriptor.read(executor::coreSize);
        int newCapacity = (capacity != null) ? capacity : (currentCapacity != null) ? currentCapacity : -1;
        Integer newCore = (coreSize != null) ? coreSize : currentCore;
        if (newCore != null && newCapacity >= 0 && newCore > newCapacity) {
            throw new InvalidSettingException((coreSize != null) ? ExecutorAdapter.CORE_SIZE : ExecutorAdapter.CAPACITY,
                    "the " + type + "'s coreSize (" + newCore + ") would be above its capacity (" + newCapacity
                            + "); give a capacity of at least " + newCore + " or a smaller coreSize");
        }
        boolean capacityFirst = coreSize != null && currentCapacity != null && currentCapacity >= 0
                && coreSize > currentCapacity;
        if (capacityFirst) {
            apply(executor, type, capacity, currentCapacity, true, coreSize);
        }
        else {
            apply(executor, type, coreSize, currentCore, false, capacity);
        }
    }

    /**
     * An executor whose core size is its capacity: one value, given as either field (or both, equal), set once. A core
     * size of 0 is refused there: it would leave the executor no thread to run on.
     */
    private static void setOneSize(ExecutorAdapter executor, @Nullable String type, @Nullable Integer capacity,
            @Nullable Integer coreSize) {
        require(capacity == null || coreSize == null || capacity.equals(coreSize), ExecutorAdapter.CORE_SIZE,
                "a " + type + " runs on its core threads only, so its coreSize is its capacity; give one of them, or "
                        + "both equal (capacity " + capacity + ", coreSize " + coreSize + ")");
        if (capacity != null) {
            set(executor, type, ExecutorAdapter.CAPACITY, capacity);
            return;
        }
        require(coreSize > 0, ExecutorAdapter.CORE_SIZE, "a " + type + " runs on its core threads only, so its "
                + "coreSize must be positive, was " + coreSize);
        set(executor, type, ExecutorAdapter.CORE_SIZE, coreSize);
    }

    /** Sets {@code first} (the capacity when {@code capacityFirst}), then the other; undoes the first if that fails. */
    private static void apply(ExecutorAdapter executor, @Nullable String type, @Nullable Integer first,
            @Nullable Integer firstBefore, boolean capacityFirst, @Nullable Integer second) {
        String firstField = capacityFirst ? ExecutorAdapter.CAPACITY : ExecutorAdapter.CORE_SIZE;
        String secondField = capacityFirst ? ExecutorAdapter.CORE_SIZE : ExecutorAdapter.CAPACITY;
        if (first != null) {
            set(executor, type, firstField, first);
        }
        if (second == null) {
            return;
        }
        try {
            set(executor, type, secondField, second);
        }
        catch (InvalidSettingException ex) {
            if (first != null && firstBefore != null) {
                try {
                    set(executor, type, firstField, firstBefore);
                }
                catch (InvalidSettingException undoFailed) {
                    Integer now = ExecutorDescriptor.read(capacityFirst ? executor::capacity : executor::coreSize);
                    InvalidSettingException halfDone = new InvalidSettingException(ex.field(), ex.detail()
                            + "; undoing the first change failed too, so the " + type + "'s " + firstField + " is now "
                            + ((now != null) ? now : "unknown") + ", not " + firstBefore + " ("
                            + undoFailed.getMessage() + "); check the executor and write " + firstField + " again");
                    halfDone.addSuppressed(undoFailed);
                    throw halfDone;
                }
            }
            throw ex;
        }
    }

    private static void set(ExecutorAdapter executor, @Nullable String type, String field, int value) {
        try {
            if (field.equals(ExecutorAdapter.CAPACITY)) {
                executor.setCapacity(value);
            }
            else {
                executor.setCoreSize(value);
            }
        }
        catch (RuntimeException ex) {
            throw new InvalidSettingException(field, "the " + type + " refused " + field + " " + value + ": "
                    + ((ex.getMessage() != null) ? ex : ex.getClass().getName() + " without a message (a value out of"
                    + " the range this executor takes?)"));
        }
    }

    private static void require(boolean condition, String field, String detail) {
        if (!condition) {
            throw new InvalidSettingException(field, detail);
        }
    }
}
