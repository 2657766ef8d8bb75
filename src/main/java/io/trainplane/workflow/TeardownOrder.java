package io.trainplane.workflow;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The order of a teardown, derived from what each resource depends on ("must be gone before it
 * can be deleted"): a resource is asked to go only once everything it depends on is gone, so a
 * delete that is refused, or still under way, holds back only what depends on it, and every other
 * chain goes on in the same pass.
 *
 * @param <K> the kinds of resources
 */
final class TeardownOrder<K> {
    /** What one pass did with a kind. */
    enum Outcome {
        /** Gone, kept, or never there: what depends on it may go. */
        GONE,
        /** Asked to go and still there (being deleted, or refused for now): asked again next pass. */
        WAITING,
        /** Its delete was refused for good. */
        REFUSED,
        /** Not asked: something it depends on is still there. */
        HELD
    }

    private final List<K> order;
    private final Function<K, ? extends Collection<K>> dependsOn;

    private TeardownOrder(List<K> order, Function<K, ? extends Collection<K>> dependsOn) {
        this.order = order;
        this.dependsOn = dependsOn;
    }

    /**
     * The order of {@code kinds}: each after everything it depends on, ties in the order given.
     *
     * @throws IllegalArgumentException when the dependencies form a cycle, or name a kind not given
     */
    static <K> TeardownOrder<K> of(Collection<K> kinds, Function<K, ? extends Collection<K>> dependsOn) {
        List<K> order = new ArrayList<>();
        Set<K> placed = new LinkedHashSet<>();
        List<K> left = new ArrayList<>(kinds);
        for (K kind : kinds) {
            for (K dependency : dependsOn.apply(kind)) {
                if (!kinds.contains(dependency)) {
                    throw new IllegalArgumentException(kind + " depends on " + dependency + ", which is not declared");
                }
            }
        }
        while (!left.isEmpty()) {
            K next = left.stream()
                    .filter(k -> placed.containsAll(dependsOn.apply(k)))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("the dependencies of " + left + " form a cycle"));
            order.add(next);
            placed.add(next);
            left.remove(next);
        }
        return new TeardownOrder<>(List.copyOf(order), dependsOn);
    }

    /** Every kind, each after everything it depends on. */
    List<K> order() {
        return order;
    }

    /**
     * The kinds by wave: a wave may go once the waves before it are gone, and its kinds are
     * independent of each other (the first holds the kinds that depend on nothing).
     */
    List<List<K>> waves() {
        Map<K, Integer> wave = new LinkedHashMap<>();
        for (K kind : order) {
            wave.put(
                    kind,
                    dependsOn.apply(kind).stream()
                            .mapToInt(d -> wave.get(d) + 1)
                            .max()
                            .orElse(0));
        }
        return List.copyOf(wave.keySet().stream()
                .collect(Collectors.groupingBy(wave::get, LinkedHashMap::new, Collectors.toList()))
                .values());
    }

    /**
     * One pass: walks the order and {@code attempt}s each kind whose dependencies all came out
     * {@link Outcome#GONE} in this pass; the others are {@link Outcome#HELD}. {@code attempt}
     * answers GONE, WAITING or REFUSED.
     *
     * @return each kind's outcome, in the order
     */
    Map<K, Outcome> pass(Function<K, Outcome> attempt) {
        Map<K, Outcome> outcomes = new LinkedHashMap<>();
        for (K kind : order) {
            if (!dependsOn.apply(kind).stream().allMatch(d -> outcomes.get(d) == Outcome.GONE)) {
                outcomes.put(kind, Outcome.HELD);
                continue;
            }
            Outcome outcome = attempt.apply(kind);
            if (outcome == Outcome.HELD) {
                throw new IllegalStateException("an attempt answers GONE, WAITING or REFUSED, not HELD (" + kind + ")");
            }
            outcomes.put(kind, outcome);
        }
        return outcomes;
    }
}
