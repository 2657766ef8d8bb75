package io.trainplane.workflow;

import io.trainplane.runs.RunPhase;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.StepEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's phases and how long each took, derived from its step timeline (whose entries start
 * when the state machine entered their state, see {@link StepHandler}): nothing more is stored,
 * so the record does not grow and records written before this existed read the same.
 *
 * <p>A phase starts when the first state that opens it is entered and lasts until the next phase
 * starts; the last one lasts until the run ended (its record's last write), or until now while
 * the run goes on. The first phase starts at the run's creation, so the phases add up to the
 * run's duration. The phases are {@link RunPhase}'s, in its order: the volume and the outputs have
 * phases of their own here (they take minutes on AWS); the record's stored {@code phase} keeps its
 * coarser values ({@link RunPhase#recorded()}).
 */
public final class PhaseTimeline {

    /**
     * The states that open a phase (the pipeline's and the safety net's, see {@link Pipeline}). A
     * state opens its phase only when no later phase has begun: ConnectCluster opens the cluster
     * phase of an existing cluster, and is part of it after CreateCluster; FinishRun opens the
     * cleanup only when nothing before it did.
     */
    private static final Map<String, RunPhase> OPENERS = Map.ofEntries(
            Map.entry("StartRun", RunPhase.START),
            Map.entry("CreateCluster", RunPhase.CLUSTER),
            Map.entry("ConnectCluster", RunPhase.CLUSTER),
            // The wait for it: on a created cluster the file system is made while the control plane is.
            Map.entry("CheckVolume", RunPhase.VOLUME),
            Map.entry("StartDataJob", RunPhase.DATA),
            Map.entry("StartTraining", RunPhase.TRAIN),
            Map.entry("StartEvaluation", RunPhase.EVALUATE),
            Map.entry("StartOutputs", RunPhase.OUTPUTS),
            Map.entry("RecordFailure", RunPhase.CLEANUP),
            // Teardown's first pass is in the timeline only when it left nothing (a pass that
            // leaves something is a poll that found nothing new); the loop's entry then starts
            // when the step before it ended, which is when Teardown was entered.
            Map.entry("Teardown", RunPhase.CLEANUP),
            Map.entry("CheckTeardown", RunPhase.CLEANUP),
            Map.entry("RetryTeardown", RunPhase.CLEANUP),
            Map.entry("FinishRun", RunPhase.CLEANUP),
            Map.entry("CloseRun", RunPhase.CLEANUP));

    /** One phase: {@code ended} is null while it goes on. */
    public record Phase(RunPhase phase, Instant started, Instant ended) {
        public Duration duration(Instant now) {
            return Duration.between(started, ended == null ? now : ended);
        }
    }

    private PhaseTimeline() {}

    /** The phase that {@code state} opens, if it opens one. */
    public static Optional<RunPhase> opens(String state) {
        return Optional.ofNullable(OPENERS.get(state));
    }

    /** Whether {@code next} comes after {@code current} in the pipeline (a phase is never reopened). */
    public static boolean after(RunPhase next, RunPhase current) {
        return next.isAfter(current);
    }

    /** The run's phases so far, in order; the last one's end is the run's when it has ended. */
    public static List<Phase> of(RunRecord run, List<StepEntry> steps) {
        List<StepEntry> ordered = new ArrayList<>(steps);
        ordered.sort(Comparator.comparing(StepEntry::started));
        List<RunPhase> names = new ArrayList<>();
        List<Instant> starts = new ArrayList<>();
        for (StepEntry step : ordered) {
            Optional<RunPhase> opened = opens(step.state());
            RunPhase current = names.isEmpty() ? null : names.getLast();
            if (opened.isPresent() && after(opened.get(), current)) {
                names.add(opened.get());
                starts.add(step.started());
            }
        }
        if (names.isEmpty()) {
            names.add(RunPhase.START);
            starts.add(run.createdAt());
        }
        starts.set(0, run.createdAt());
        Instant end = run.status().isTerminal() ? run.updatedAt() : null;
        List<Phase> phases = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Instant started = starts.get(i);
            Instant ended = i + 1 < names.size() ? starts.get(i + 1) : end;
            if (ended != null && ended.isBefore(started)) {
                ended = started;
            }
            phases.add(new Phase(names.get(i), started, ended));
        }
        return phases;
    }
}
