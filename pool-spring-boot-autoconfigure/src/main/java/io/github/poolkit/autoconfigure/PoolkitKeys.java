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
     * Finds the unknown keys, and the values given to a group of keys next to keys under it: Spring Boot does not bind
     * the keys under a group that has a value of its own, even an empty one, and says nothing.
     * ({@code poolkit.pools.reports=true} beside {@code poolkit.pools.reports.capacity=4}; or a pool declared in YAML
     * with nothing under it, {@code reports:}, whose capacity an environment variable sets.) A group's value alone
     * fails the binding, which reports it, except an empty one: that is how YAML declares an entry with every default.
     *
     * @param environment the application's environment
     * @return one problem per such key, in the order of the property sources, each key once
     */
    List<InvalidPoolkitPropertyException> unknownKeys(Environment environment) {
        Map<ConfigurationPropertyName, InvalidPoolkitPropertyException> problems = new LinkedHashMap<>();
        List<IterableConfigurationPropertySource> sources = new ArrayList<>();
        ConfigurationPropertySources.get(environment).forEach(source -> {
            if (source instanceof IterableConfigurationPropertySource iterable) {
                sources.add(iterable);
            }
        });
        for (IterableConfigurationPropertySource source : sources) {
            boolean environmentVariables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
            source.stream().filter(PoolkitKeys::isPoolkitKey).filter(name -> !problems.containsKey(name))
                    .forEach(name -> {
                        ConfigurationProperty property = source.getConfigurationProperty(name);
                        Node node = root.find(new Elements(name), 1, environmentVariables);
                        if (node == null) {
                            problems.put(name, unknown(name, property, nearest(name, environmentVariables)));
                        }
                        else if (node.isGroup() && property != null && dropsKeysUnder(node, property.getValue())) {
                            ConfigurationProperty under = firstKeyUnder(sources, name);
                            if (under != null) {
                                problems.put(name, valueBesideKeys(name.toString(), property, under, node));
                            }
                        }
                    });
        }
        return new ArrayList<>(problems.values());
    }

    /**
     * The problem of a value given to a group of keys, such as {@code poolkit.pool=5}.
     *
     * @param key      the group's key
     * @param property where the value was found
     * @return the problem, naming the fix
     */
    static InvalidPoolkitPropertyException groupValue(String key, ConfigurationProperty property) {
        return new InvalidPoolkitPropertyException(key, property.getValue(), "a group of keys (" + key
                + ".<key>) takes no value of its own" + where(property),
                "remove the value of " + key + " and set the keys under it instead");
    }

    /**
     * Whether Spring Boot drops the keys under a group that holds this value: any value, an empty one included, except
     * an empty one on a map of free names ({@code poolkit.pools:} with its pools commented out), whose names it binds
     * whatever the map's own value. An empty map or list (a JSON source's {@code {}}) is no value.
     */
    private static boolean dropsKeysUnder(Node node, Object value) {
        if (value instanceof Map<?, ?> map) {
            return !map.isEmpty();
        }
        if (value instanceof Collection<?> collection) {
            return !collection.isEmpty();
        }
        return !String.valueOf(value).isBlank() || node.values == null;
    }

    private static InvalidPoolkitPropertyException valueBesideKeys(String key, ConfigurationProperty property,
            ConfigurationProperty under, Node node) {
        if (!String.valueOf(property.getValue()).isBlank()) {
            return groupValue(key, property);
        }
        String example = node.names().contains("enabled") ? " (such as enabled: true)" : "";
        return new InvalidPoolkitPropertyException(key, property.getValue(), "this group of keys is given an empty"
                + " value" + where(property) + ", as YAML does for a key with nothing under it, and Spring Boot then"
                + " ignores the keys under it given elsewhere, such as " + under.getName() + where(under),
                "where " + key + " is declared, set one of its keys" + example + " instead of leaving it empty");
    }

    private static String where(ConfigurationProperty property) {
        Origin origin = Origin.from(property);
        return (origin != null) ? " (set in " + origin + ")" : "";
    }

    /** {@return a key under {@code group} in any source, {@code null} when there is none} */
    private static ConfigurationProperty firstKeyUnder(List<IterableConfigurationPropertySource> sources,
            ConfigurationPropertyName group) {
        for (IterableConfigurationPropertySource source : sources) {
            ConfigurationPropertyName name = source.stream().filter(group::isAncestorOf).findFirst().orElse(null);
            if (name != null) {
                return source.getConfigurationProperty(name);
            }
        }
        return null;
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
        if (root.find(elements, 1, environmentVariables) != null) {
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
        String where = (property != null) ? where(property) : "";
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

        /** {@return the names of its keys; none for a map of free names or a value} */
        Set<String> names() {
            Set<String> names = new LinkedHashSet<>();
            if (entries != null) {
                entries.values().forEach(entry -> names.add(entry.name));
            }
            return names;
        }

        /** {@return whether this node holds keys (named ones or free names), as opposed to a value} */
        boolean isGroup() {
            return entries != null || values != null;
        }

        /**
         * Finds the known key (or group of keys) that the elements from {@code index} on form under this node. With
         * {@code environmentVariables}, a key's words may span several elements.
         *
         * @return the key's node, {@code null} when the elements form no known key
         */
        Node find(Elements elements, int index, boolean environmentVariables) {
            if (index == elements.size()) {
                return this;
            }
            if (values != null) {
                return values.find(elements, index + 1, environmentVariables);
            }
            if (entries == null) {
                return null;
            }
            StringBuilder joined = new StringBuilder();
            int last = environmentVariables ? elements.size() : index + 1;
            for (int end = index; end < last; end++) {
                joined.append(elements.uniform(end));
                Entry entry = entries.get(joined.toString());
                Node found = (entry != null) ? entry.node.find(elements, end + 1, environmentVariables) : null;
                if (found != null) {
                    return found;
                }
            }
            return null;
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
