package io.github.poolkit.autoconfigure.actuate;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.BeanUtils;

import io.github.poolkit.autoconfigure.NearestName;
import io.github.poolkit.autoconfigure.NamedSemaphoreProperties;
import io.github.poolkit.autoconfigure.PoolProperties;
import io.github.poolkit.autoconfigure.SchedulerProperties;

/**
 * Refuses a write to the {@code pools} endpoint whose body has a field that its target cannot change: a field that is
 * no parameter of the write operation at all (misspelt, unknown, or a setting fixed when the pool was created such as
 * {@code queueCapacity}). Spring Boot's endpoint infrastructure binds the body's fields to the operation's parameters
 * by name and drops the others without a word; this advisor sees the whole body, so it answers 400 with a problem
 * body naming each such field, saying why it cannot change and which fields the target does accept, and the
 * operation is not invoked, so nothing changes.
 *
 * <p>A field that is a parameter but does not apply to the target ({@code size} on a pool) is left to
 * {@link SettingsChange}, and a write to a name that is no pool, scheduler or semaphore to the operation (404).
 */
final class WriteFieldsCheck extends PoolsWriteCheck<WriteFieldsCheck.Target> {

    WriteFieldsCheck(PoolkitBeans beans) {
        super(name -> target(beans, name), beans::beanName);
    }

    @Override
    InvalidSettingException refusal(Target target, String name, List<String> unknown) {
        List<String> reasons = new ArrayList<>();
        reasons.add(target.why(unknown.get(0)));
        for (String field : unknown.subList(1, unknown.size())) {
            reasons.add(field + " " + target.why(field));
        }
        String accepted = target.accepted.isEmpty()
                ? "'" + name + "' is a " + target.kind + ", whose settings cannot change at run time"
                : "a " + target.kind + " accepts " + String.join(", ", target.accepted);
        return new InvalidSettingException(unknown.get(0),
                String.join("; ", reasons) + "; nothing was changed: " + accepted);
    }

    private static @Nullable Target target(PoolkitBeans beans, String name) {
        if (beans.pools().containsKey(name)) {
            return new Target("pool", SettingsChange.POOL_FIELDS, PoolProperties.class);
        }
        if (beans.semaphores().containsKey(name)) {
            return new Target("semaphore", SettingsChange.SEMAPHORE_FIELDS, NamedSemaphoreProperties.class);
        }
        if (beans.schedulers().containsKey(name)) {
            return new Target("scheduler", List.of(), SchedulerProperties.class);
        }
        return null;
    }

    /**
     * What a write may change on one kind of bean.
     *
     * @param kind       {@code pool}, {@code semaphore} or {@code scheduler}
     * @param accepted   the fields a write may change on it
     * @param properties the configuration properties of that kind, whose other fields are fixed at creation
     */
    record Target(String kind, List<String> accepted, Class<?> properties) {

        /** @return why {@code field} cannot be written to this kind of bean */
        String why(String field) {
            Set<String> settings = new LinkedHashSet<>();
            for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(properties)) {
                boolean group = property.getPropertyType() != null // a nested group of keys, such as adaptive
                        && property.getPropertyType().getPackageName().equals(properties.getPackageName());
                if (property.getReadMethod() != null && (property.getWriteMethod() != null || group)) {
                    settings.add(property.getName());
                }
            }
            if (settings.contains(field)) {
                return "cannot change at run time: it is fixed when the " + kind
                        + " is created (change it in the configuration and restart)";
            }
            String hint = accepted.isEmpty() ? "" : " (did you mean " + NearestName.nearest(field, accepted) + "?)";
            return "is not a setting of a " + kind + hint;
        }
    }
}
