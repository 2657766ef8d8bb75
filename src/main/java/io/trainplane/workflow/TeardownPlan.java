package io.trainplane.workflow;

import io.trainplane.aws.Deletion;
import io.trainplane.core.TransientException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.spec.CleanupSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * One pass of cleanup over a run's resources, in the order {@link ResourceKind}'s dependencies give
 * ({@link #ORDER}): each kind is asked to go once everything it depends on is gone in this pass,
 * and forgotten (in the run record) once it is gone. A delete that is refused, or still under way,
 * holds back only what depends on it; every other chain goes on, so one stuck resource never keeps
 * the rest alive. Kept resources ({@code cleanup.keepCluster}, {@code keepVolume}, adopted file
 * systems) are never touched, and hold nothing back.
 */
final class TeardownPlan {
    /** The teardown order, derived from the declared dependencies. */
    static final TeardownOrder<ResourceKind> ORDER =
            TeardownOrder.of(List.of(ResourceKind.values()), ResourceKind::dependsOn);

    private final RunRecord run;
    private final CleanupSpec keep;
    private final Function<ResourceKind, Optional<ResourceLifecycles.Held>> held;
    private final Consumer<UnaryOperator<RunRecord>> update;
    private final List<String> remaining = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private Map<ResourceKind, TeardownOrder.Outcome> outcomes = Map.of();
    private int waiting;

    /**
     * A pass over {@code run}'s resources as {@code lifecycles} binds them; {@code update} changes
     * the stored run record (a conditional update: it may apply the change to a newer record).
     */
    TeardownPlan(RunRecord run, ResourceLifecycles lifecycles, Consumer<UnaryOperator<RunRecord>> update) {
        this(
                run,
                lifecycles.bind(run, change -> update.accept(r -> r.withResources(change.apply(r.resources())))),
                update);
    }

    TeardownPlan(
            RunRecord run,
            Function<ResourceKind, Optional<ResourceLifecycles.Held>> held,
            Consumer<UnaryOperator<RunRecord>> update) {
        this.run = run;
        this.keep = CleanupRecord.keep(run);
        this.held = held;
        this.update = update;
    }

    /** Deletes what can go now; returns what is left (kept resources aside), as the inventory names it. */
    List<String> advance() {
        outcomes = ORDER.pass(this::attempt);
        outcomes.forEach((kind, outcome) -> {
            if (outcome == TeardownOrder.Outcome.HELD && !kind.kept(keep, run.resources())) {
                held.apply(kind).ifPresent(h -> remaining.addAll(h.named()));
            }
        });
        return remaining;
    }

    /** What this pass did with each kind, in the order. */
    Map<ResourceKind, TeardownOrder.Outcome> outcomes() {
        return outcomes;
    }

    /** The errors of this pass that retrying will not fix, one line each. */
    List<String> failures() {
        return failures;
    }

    /** Whether some delete is still under way (or refused only for now), so another pass is worth it. */
    boolean progressing() {
        return waiting > 0;
    }

    private TeardownOrder.Outcome attempt(ResourceKind kind) {
        if (kind.kept(keep, run.resources())) {
            return TeardownOrder.Outcome.GONE;
        }
        Optional<ResourceLifecycles.Held> found = held.apply(kind);
        if (found.isEmpty()) {
            return TeardownOrder.Outcome.GONE;
        }
        ResourceLifecycles.Held resource = found.get();
        try {
            if (resource.delete() instanceof Deletion.Gone) {
                forget(kind);
                return TeardownOrder.Outcome.GONE;
            }
            waiting++;
            remaining.addAll(resource.named());
            return TeardownOrder.Outcome.WAITING;
        } catch (RuntimeException e) {
            remaining.addAll(resource.named());
            RuntimeException classified = Failures.classify(e);
            if (classified instanceof TransientException) {
                waiting++;
                return TeardownOrder.Outcome.WAITING;
            }
            // The classified message: an IAM refusal reads "AccessDeniedException: …" with its fix.
            failures.add(kind.what() + ": " + classified.getMessage());
            return TeardownOrder.Outcome.REFUSED;
        }
    }

    /** The record without the kind's entries, noting what was deleted (as {@code Run Cleaned Up} names it). */
    private void forget(ResourceKind kind) {
        update.accept(r -> r.withResources(forgotten(r.resources(), kind)));
    }

    static RunResources forgotten(RunResources resources, ResourceKind kind) {
        List<String> deleted = kind.eventNamed(resources);
        RunResources without = resources.without(kind.keys());
        return deleted.isEmpty() ? without : CleanupRecord.noteDeleted(without, deleted);
    }
}
