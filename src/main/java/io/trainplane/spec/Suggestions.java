package io.trainplane.spec;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** "Did you mean ...?": the closest known word within a small edit distance. */
final class Suggestions {
    static final int MAX_DISTANCE = 2;

    private Suggestions() {}

    /**
     * The candidate closest to {@code word} (case-insensitive Levenshtein distance), if one is
     * within {@link #MAX_DISTANCE}; ties go to the first candidate.
     */
    static Optional<String> closest(String word, Collection<String> candidates) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (String candidate : candidates) {
            int distance = distance(word.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return Optional.ofNullable(best);
    }

    static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
