package io.github.poolkit.autoconfigure;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Finds the keys under {@code poolkit.} in the environment that no property of {@link PoolkitProperties} binds, such
 * as {@code poolkit.pool.capasity} or {@code poolkit.schedular.workers}, each with the nearest key that does exist.
 *
 * <p>The known keys are derived from {@link PoolkitProperties} itself, so a property added there is known at once: a
 * nested class of poolkit's own (such as {@code Pool}) is a group of keys, a {@code Map} a group of free names
 * ({@code poolkit.pools.<name>}) each followed by the keys of its value type, anything else a value. Keys are matched
 * as Spring Boot's binder matches them: every source's names come in Spring Boot's canonical form, whatever their
 * spelling (camelCase, kebab-case, underscores, {@code [indexed]} map keys), and their elements are compared in the
 * uniform form (lower case, no dashes). Environment variables map {@code _} to {@code .}, so in that source a field's
 * words may also span several elements ({@code POOLKIT_POOL_MAX_WAIT} is {@code poolkit.pool.max.wait}), as the
 * binder's legacy matching accepts.
 *
 * <p>Stateless apart from the tree of known keys, built once per instance.
 */
final class PoolkitKeys {

    static final String PREFIX = "poolkit";

    private final Node root = Node.of(ResolvableType.forClass(PoolkitProperties.class));

    /**
     * @param environment the application's environment
     * @return one problem per unknown key, in the order of the property sources, each key once
     */
    List<InvalidPoolkitPropertyException> unknownKeys(Environment environment) {
        Map<ConfigurationPropertyName, InvalidPoolkitPropertyException> problems = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            boolean environmentVariables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
            iterable.stream().filter(PoolkitKeys::isPoolkitKey).filter(name -> !problems.containsKey(name))
                    .forEach(name -> {
                        Suggestion suggestion = nearest(name, environmentVariables);
                        if (suggestion != null) {
                            problems.put(name, unknown(name, source.getConfigurationProperty(name), suggestion));
                        }
                    });
        }
        return new ArrayList<>(problems.values());
    }

    private static boolean isPoolkitKey(ConfigurationPropertyName name) {
        return name.getNumberOfElements() > 1 && name.getElement(0, Form.UNIFORM).equals(PREFIX);
    }

    /**
     * @param name                 a key under {@code poolkit.}
     * @param environmentVariables whether it comes from environment variables
     * @return {@code null} when the key is known, else the nearest known key and its siblings
     */
    Suggestion nearest(ConfigurationPropertyName name, boolean environmentVariables) {
        Elements elements = new Elements(name);
        List<String> path = new ArrayList<>(List.of(PREFIX));
        Miss miss = root.match(elements, 1, environmentVariables, path);
        if (miss == null) {
            return null;
        }
        String parent = String.join(".", path);
        if (miss.node.entries == null) {
            // a value followed by more elements: the value's own key is the nearest
            return new Suggestion(parent, parent.substring(0, parent.lastIndexOf('.')), List.of());
        }
        String nearest = NearestName.nearest(elements.uniform(miss.index), miss.node.names());
        List<String> completed = new ArrayList<>(List.of(nearest));
        Node next = miss.node.entries.get(NearestName.uniform(nearest)).node;
        if (next.match(elements, miss.index + 1, environmentVariables, completed) != null) {
            completed = List.of(nearest);
        }
        return new Suggestion(parent + "." + String.join(".", completed), parent, miss.node.names());
    }

    private static InvalidPoolkitPropertyException unknown(ConfigurationPropertyName name,
            ConfigurationProperty property, Suggestion suggestion) {
        Object value = (property != null) ? property.getValue() : "";
        Origin origin = Origin.from(property);
        String where = (origin != null) ? " (set in " + origin + ")" : "";
        String siblings = suggestion.siblings.isEmpty() ? ""
                : "; the keys under " + suggestion.parent + " are " + String.join(", ", suggestion.siblings);
        return new InvalidPoolkitPropertyException(name.toString(), value,
                "poolkit has no property of that name" + where,
                "did you mean " + suggestion.key + "? Rename or remove " + name + siblings);
    }

    /**
     * The nearest known key to an unknown one.
     *
     * @param key      the nearest known key, in full
     * @param parent   the group the unknown key missed in
     * @param siblings the keys of that group
     */
    record Suggestion(String key, String parent, Collection<String> siblings) {
    }

    /** A key's elements after {@code poolkit}: uniform to match, as written to show map keys. */
    private static final class Elements {

        private final ConfigurationPropertyName name;

        Elements(ConfigurationPropertyName name) {
            this.name = name;
        }

        int size() {
            return name.getNumberOfElements();
        }

        String uniform(int index) {
            return name.getElement(index, Form.UNIFORM);
        }

        String shown(int index) {
            String original = name.getElement(index, Form.ORIGINAL);
            return original.contains(".") ? "[" + original + "]" : original;
        }
    }

    /**
     * Where a key stopped matching: at {@code index}, under {@code node}.
     *
     * @param node  the last node that matched: a group none of whose keys is the element, or a value
     * @param index the element that matched nothing
     */
    private record Miss(Node node, int index) {
    }

    /**
     * A node of the tree of known keys: a group of named keys ({@code entries}), a group of free names each followed by
     * the keys of {@code values}, or a value (neither).
     */
    private static final class Node {

        /** Uniform name to the key under it, in declaration order; {@code null} unless a group of named keys. */
        private final Map<String, Entry> entries;
        /** What follows a free name; {@code null} unless a map. */
        private final Node values;

        private Node(Map<String, Entry> entries, Node values) {
            this.entries = entries;
            this.values = values;
        }

        static Node of(ResolvableType type) {
            Class<?> raw = type.resolve(Object.class);
            if (Map.class.isAssignableFrom(raw)) {
                return new Node(null, of(type.asMap().getGeneric(1)));
            }
            if (!isGroup(raw)) {
                return new Node(null, null);
            }
            Map<String, Entry> entries = new LinkedHashMap<>();
            for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(raw)) {
                if (property.getReadMethod() == null || property.getName().equals("class")) {
                    continue;
                }
                String name = DataObjectPropertyName.toDashedForm(property.getName());
                ResolvableType propertyType = ResolvableType.forMethodReturnType(property.getReadMethod());
                entries.put(NearestName.uniform(name), new Entry(name, of(propertyType)));
            }
            return new Node(entries, null);
        }

        /** A class of poolkit's own that is not an enum holds keys; anything else is one value. */
        private static boolean isGroup(Class<?> type) {
            return !type.isEnum() && type.getPackageName().startsWith(PoolkitProperties.class.getPackageName());
        }

        Set<String> names() {
            Set<String> names = new LinkedHashSet<>();
            entries.values().forEach(entry -> names.add(entry.name));
            return names;
        }

        /**
         * Matches the elements from {@code index} on, appending the known spelling of each matched element to
         * {@code path}. With {@code environmentVariables}, a key's words may span several elements; the first key
         * that leads to a full match wins, else the first that matched at all tells where the key missed.
         *
         * @return {@code null} when they form a known key (or a group of keys), else where they stopped matching
         */
        Miss match(Elements elements, int index, boolean environmentVariables, List<String> path) {
            if (index == elements.size()) {
                return null;
            }
            if (values != null) {
                path.add(elements.shown(index));
                return values.match(elements, index + 1, environmentVariables, path);
            }
            if (entries == null) {
                return new Miss(this, index);
            }
            Miss firstMiss = null;
            List<String> firstPath = null;
            StringBuilder joined = new StringBuilder();
            int last = environmentVariables ? elements.size() : index + 1;
            for (int end = index; end < last; end++) {
                joined.append(elements.uniform(end));
                Entry entry = entries.get(joined.toString());
                if (entry == null) {
                    continue;
                }
                List<String> attempt = new ArrayList<>(List.of(entry.name));
                Miss miss = entry.node.match(elements, end + 1, environmentVariables, attempt);
                if (miss == null) {
                    path.addAll(attempt);
                    return null;
                }
                if (firstMiss == null) {
                    firstMiss = miss;
                    firstPath = attempt;
                }
            }
            if (firstMiss != null) {
                path.addAll(firstPath);
                return firstMiss;
            }
            return new Miss(this, index);
        }
    }

    /**
     * A named key of a group.
     *
     * @param name the key as documented (kebab-case)
     * @param node what the key holds
     */
    private record Entry(String name, Node node) {
    }
}
