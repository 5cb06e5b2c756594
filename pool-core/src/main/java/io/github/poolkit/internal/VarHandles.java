package io.github.poolkit.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Finds the {@link VarHandle} of a field while its class is initialized, for the classes that update their own fields
 * atomically.
 *
 * <p>Invariant: called only from a static initializer (a {@code static final} field), so the handle is a constant
 * the JIT folds into each access: looking it up here costs the access nothing. A field that is not found is a bug in
 * its class, which then fails to initialize.
 */
public final class VarHandles {

    private VarHandles() {
    }

    /**
     * Returns the handle of a field of the class that {@code lookup} was made in.
     *
     * @param lookup that class's own {@code MethodHandles.lookup()}, which may reach its private fields
     * @param name   the field's name
     * @param type   the field's type
     * @return the field's handle
     * @throws ExceptionInInitializerError if the class has no such field
     */
    public static VarHandle field(MethodHandles.Lookup lookup, String name, Class<?> type) {
        try {
            return lookup.findVarHandle(lookup.lookupClass(), name, type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
