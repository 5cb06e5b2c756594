package io.github.poolkit.autoconfigure;

import java.util.Collection;
import java.util.Locale;

/**
 * Finds, among the names that are valid at some place, the one nearest to a name that is not, for an error message's
 * "did you mean ...?". Names are compared in one form, lower case without dashes or underscores, so
 * {@code max-wait}, {@code maxWait} and {@code max_wait} are the same name, and the distance is the Levenshtein
 * distance (single-character insertions, deletions and substitutions) between those forms.
 *
 * <p>Stateless.
 */
public final class NearestName {

    private NearestName() {
    }

    /**
     * Finds the valid name nearest to {@code name}; on a tie the first in {@code candidates}' order.
     *
     * @param name       the name that was given
     * @param candidates the names that are valid there, not empty
     * @return the nearest candidate, as {@code candidates} spells it
     */
    public static String nearest(String name, Collection<String> candidates) {
        String given = uniform(name);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = distance(given, uniform(candidate));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        if (best == null) {
            throw new IllegalArgumentException("no candidates for '" + name + "'");
        }
        return best;
    }

    /**
     * {@return {@code name} in the form names are compared in: lower case, without dashes or underscores}
     *
     * @param name a name in any of the forms Spring Boot's relaxed binding accepts
     */
    public static String uniform(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

    /** Levenshtein distance of two names already in the uniform form, one row at a time. */
    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + ((a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
