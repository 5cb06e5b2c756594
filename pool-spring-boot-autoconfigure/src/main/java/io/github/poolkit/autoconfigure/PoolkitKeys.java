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
 * ({@code poolkit.pools.<name>}) each followed by the keys of its value type (a list likewise, its indexes being the
 * free names), anything else a value. Keys are matched
 * as Spring Boot's binder matches them: every source's names come in Spring Boot's canonical form, whatever their
 * spelling (camelCase, kebab-case, underscores, {@code [indexed]} map keys), and their elements are compared in the
 * uniform form (lower case, no dashes). Environment variables map {@code _} to {@code .}, so in that source a field's
 * words may also span several elements ({@code POOLKIT_POOL_MAX_WAIT} is {@code poolkit.pool.max.wait}), as the
 * binder's legacy matching accepts.
 *
 * <p>The nearest key is the known key whose elements are at the least summed edit distance from the unknown key's,
 * searched over the whole tree, so that a slip on any level is found ({@code poolkit.pool.reports.capacity} gets
 * {@code poolkit.pools.reports.capacity}).
 *
 * <p>Used at start-up, where an unknown key stops the application, and by the live refresh, which logs and ignores
 * one. Immutable: the tree of known keys is built once per instance.
 */
public final class PoolkitKeys {

    static final String PREFIX = "poolkit";

    private final Node root = Node.of(ResolvableType.forClass(PoolkitProperties.class));

    /** Creates the finder, deriving the known keys from {@link PoolkitProperties}. */
    public PoolkitKeys() {
    }

    /**
     * Looks a key up among the known ones.
     *
     * @param key a key under {@code poolkit.} as a property file spells it, in any form Spring Boot binds
     * @return {@code null} when a property binds the key (or it is no key under {@code poolkit.}), else the nearest
     *         key that one does bind
     */
    public String nearestKnownKey(String key) {
        ConfigurationPropertyName name = ConfigurationPropertyName.adapt(key, '.');
        if (!isPoolkitKey(name)) {
            return null;
        }
        Suggestion suggestion = nearest(name, false);
        return (suggestion != null) ? suggestion.key() : null;
    }

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
        if (root.matches(elements, 1, environmentVariables)) {
            return null;
        }
        Candidate nearest = root.nearest(elements, 1);
        String key = PREFIX + "." + String.join(".", nearest.path);
        String parent = key.substring(0, key.lastIndexOf('.'));
        return new Suggestion(key, parent, nearest.siblings);
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
     * A known key (or group of keys) as the nearest to some elements: the sum of the edit distances of its elements to
     * theirs, its elements, and the keys of the group its last element belongs to.
     *
     * @param cost     the summed edit distance
     * @param path     the known key's elements
     * @param siblings the keys of the group of its last element, empty when that is a free name
     */
    private record Candidate(int cost, List<String> path, Collection<String> siblings) {

        Candidate under(String element, int extraCost, Collection<String> group) {
            List<String> longer = new ArrayList<>(List.of(element));
            longer.addAll(path);
            return new Candidate(cost + extraCost, longer, path.isEmpty() ? group : siblings);
        }
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
            if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
                // an index ([0]) is a free element, as a map key; the value may also be given whole ("a,b")
                ResolvableType element = raw.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
                return new Node(null, of(element));
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
         * Tells whether the elements from {@code index} on form a known key (or a group of keys) under this node. With
         * {@code environmentVariables}, a key's words may span several elements.
         */
        boolean matches(Elements elements, int index, boolean environmentVariables) {
            if (index == elements.size()) {
                return true;
            }
            if (values != null) {
                return values.matches(elements, index + 1, environmentVariables);
            }
            if (entries == null) {
                return false;
            }
            StringBuilder joined = new StringBuilder();
            int last = environmentVariables ? elements.size() : index + 1;
            for (int end = index; end < last; end++) {
                joined.append(elements.uniform(end));
                Entry entry = entries.get(joined.toString());
                if (entry != null && entry.node.matches(elements, end + 1, environmentVariables)) {
                    return true;
                }
            }
            return false;
        }

        /**
         * Finds the known key nearest to the elements from {@code index} on: each element matched to one key of its
         * level, at the cost of their edit distance (a free name costs nothing), and elements beyond a value at the
         * cost of their length. The tree is small (tens of keys), so every path is tried; on a tie the first wins.
         */
        Candidate nearest(Elements elements, int index) {
            if (index == elements.size()) {
                return new Candidate(0, List.of(), List.of());
            }
            if (values != null) {
                return values.nearest(elements, index + 1).under(elements.shown(index), 0, List.of());
            }
            if (entries == null) {
                int extra = 0;
                for (int i = index; i < elements.size(); i++) {
                    extra += elements.uniform(i).length();
                }
                return new Candidate(extra, List.of(), List.of());
            }
            Candidate best = null;
            for (Entry entry : entries.values()) {
                int distance = NearestName.distance(elements.uniform(index), NearestName.uniform(entry.name));
                Candidate candidate = entry.node.nearest(elements, index + 1).under(entry.name, distance, names());
                if (best == null || candidate.cost < best.cost) {
                    best = candidate;
                }
            }
            return best;
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
