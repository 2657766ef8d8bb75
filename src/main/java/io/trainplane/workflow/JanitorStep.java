package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunEvents;
import io.trainplane.core.FailureReason;
import io.trainplane.core.Json;
import io.trainplane.runs.RunError;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.RunSpecs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.logging.Logger;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The third cleanup layer (DESIGN §2), run on a schedule: every EKS cluster, EFS and FSx for Lustre file system and
 * control-plane log group tagged {@code trainplane:run-id} and {@code trainplane:stack} = this
 * stack whose run is finished (SUCCEEDED, FAILED, CANCELLED), unknown (no record), or older than
 * its {@code maxRunHours} gets cleaned up (an expired run whose pipeline still runs is stopped
 * first, and the safety net cleans up). Another stack's resources (its runs are in another
 * table, so they would all look unknown here) are only counted ({@code otherStacks}), never
 * touched. The janitor writes what it found into the run record (a record for an unknown run,
 * too) and starts the Cleanup state machine, whose Teardown deletes in dependency order and whose
 * CloseRun ends the run (ORPHANED).
 * Kept resources (the spec's keep flags, adopted file systems) and runs still within their time are
 * left alone; untagged resources are never looked at, but a warm node group a run still holds (its
 * claim in the Runs table) is cleaned up as the run's. One {@code Orphans Cleaned} event per sweep
 * that found something.
 */
public final class JanitorStep implements Step {
    private static final Logger LOG = Logger.getLogger(JanitorStep.class.getName());
    /** What holds data: never deleted for a run without a record. */
    private static final java.util.Set<RunResources.Key<String>> DATA =
            java.util.Set.of(RunResources.FILE_SYSTEM, RunResources.LUSTRE_FILE_SYSTEM);
    /** The error an expired run's record gets when the janitor stops its pipeline. */
    static final String EXPIRED_ERROR = FailureReason.RunExpired.name();
    /** The failed state that error names: the function's name. */
    static final String STATE = "Janitor";

    private static final DateTimeFormatter HOUR =
            DateTimeFormatter.ofPattern("yyyyMMddHH").withZone(ZoneOffset.UTC);

    private final RunStore store;
    private final Clock clock;
    private final Supplier<RunEvents> events;
    private final Supplier<TaggedResources.Sweep> sweep;
    private final Supplier<SfnClient> sfn;
    private final Supplier<String> cleanupStateMachineArn;
    private final Supplier<String> pipelineArn;

    /**
     * Built by {@link StepWiring#janitor}. {@code sweep} lists the stack's tagged resources;
     * the events, Step Functions and the state machines' ARNs are asked for when used.
     */
    JanitorStep(
            RunStore store,
            Clock clock,
            Supplier<RunEvents> events,
            Supplier<TaggedResources.Sweep> sweep,
            Supplier<SfnClient> sfn,
            Supplier<String> cleanupStateMachineArn,
            Supplier<String> pipelineArn) {
        this.store = store;
        this.clock = clock;
        this.events = events;
        this.sweep = sweep;
        this.sfn = sfn;
        this.cleanupStateMachineArn = cleanupStateMachineArn;
        this.pipelineArn = pipelineArn;
    }

    @Override
    public JsonNode run(JsonNode scheduledEvent) {
        ObjectNode detail = clean(sweep.get(), clock.instant());
        int cleaned = 0;
        for (var run : detail.path("runs")) {
            cleaned += run.path("resources").size();
        }
        EmbeddedMetrics.emit(Map.of("OrphansCleaned", (double) cleaned), Map.of("OrphansCleaned", "Count"), Map.of());
        if (!detail.path("runs").isEmpty()) {
            events.get().publish("Orphans Cleaned", detail);
        }
        return detail;
    }

    /**
     * Adopts the orphans the sweep found into their runs' records and starts each run's cleanup;
     * returns what it did, as the {@code Orphans Cleaned} event tells it. SnapStart priming runs it
     * offline ({@link Priming#ACCOUNT_SWEEP}), so it emits nothing itself.
     */
    ObjectNode clean(TaggedResources.Sweep sweep, Instant now) {
        ObjectNode detail = Json.object().put("runId", "*");
        ArrayNode runs = detail.putArray("runs");
        // What the sweep cannot account for or could not clean: counted and reported, never the end
        // of the sweep for the other runs.
        ArrayNode unaccountable = detail.putArray("unaccountable");
        ArrayNode failed = detail.putArray("failed");
        sweep.unaccountable()
                .forEach(u -> unaccountable.addObject().put("resource", u.ref()).put("why", u.why()));
        int skipped = 0;
        for (Map.Entry<String, List<TaggedResources.Found>> entry :
                withWarmClaims(sweep.byRun()).entrySet()) {
            String runId = entry.getKey();
            if (!io.trainplane.spec.Names.isValidRunId(runId)) {
                // No run of this stack has such an id: the tag was put there by something else.
                entry.getValue().forEach(f -> unaccountable
                        .addObject()
                        .put("resource", f.ref())
                        .put("why", "its trainplane:run-id tag '" + runId + "' is no run id"));
                continue;
            }
            try {
                skipped += clean(runId, entry.getValue(), now, runs, unaccountable);
            } catch (RuntimeException e) {
                failed.addObject().put("runId", runId).put("error", String.valueOf(e.getMessage()));
            }
        }
        detail.put("skipped", skipped);
        detail.put("otherStacks", sweep.otherStacks());
        return detail;
    }

    /**
     * One run's orphans: adopted and their cleanup started when the run is over; returns how many
     * were skipped. A file system of a run this stack has no record of is never deleted: it holds
     * data, and nothing says the run that made it is done with it (its record may be gone while
     * the volume was kept); it is reported as unaccountable.
     */
    private int clean(
            String runId, List<TaggedResources.Found> found, Instant now, ArrayNode runs, ArrayNode unaccountable) {
        Optional<RunRecord> record = store.find(runId);
        String why = record.isEmpty()
                ? "UNKNOWN"
                : record.get().status().isTerminal() ? "FINISHED" : expired(record.get(), now) ? "EXPIRED" : null;
        List<String> kept = record.map(CleanupRecord::kept).orElse(List.of());
        if (record.isEmpty()) {
            found.stream().filter(f -> DATA.contains(f.key())).forEach(f -> unaccountable
                    .addObject()
                    .put("resource", f.ref())
                    .put(
                            "why",
                            "a file system of run " + runId + ", of which this stack has no record: its data is"
                                    + " kept; delete it yourself if nobody needs it"));
            found = found.stream().filter(f -> !DATA.contains(f.key())).toList();
        }
        List<TaggedResources.Found> orphans =
                found.stream().filter(f -> !kept.contains(f.ref())).toList();
        int skipped = found.size() - orphans.size();
        if (why == null || orphans.isEmpty()) {
            return skipped + (why == null ? orphans.size() : 0);
        }
        ObjectNode run = runs.addObject().put("runId", runId).put("why", why);
        orphans.forEach(f -> run.withArray("resources").add(f.ref()));
        if (why.equals("EXPIRED") && stopPipeline(record.get())) {
            run.put("cleanup", "pipeline-stopped");
            return skipped;
        }
        adopt(runId, record, orphans);
        run.put("cleanup", start(runId, now) ? "started" : "already-started");
        return skipped;
    }

    /**
     * The tagged resources by run, with the warm node groups runs hold (this stack's claims, in its
     * table): a run that ended without letting go of one left its nodes up.
     */
    private Map<String, List<TaggedResources.Found>> withWarmClaims(Map<String, List<TaggedResources.Found>> byRun) {
        Map<String, List<TaggedResources.Found>> all = new java.util.LinkedHashMap<>();
        byRun.forEach((runId, found) -> all.put(runId, new java.util.ArrayList<>(found)));
        store.claims(RunStore.Claim.WARM_NODEGROUP).forEach((ref, runId) -> all.computeIfAbsent(
                        runId, k -> new java.util.ArrayList<>())
                .add(new TaggedResources.Found(RunResources.WARM_NODEGROUP, ref, "eks:nodegroup-nodes/" + ref)));
        return all;
    }

    private static boolean expired(RunRecord run, Instant now) {
        int hours = hours(run);
        return hours < 0 || Duration.between(run.createdAt(), now).compareTo(Duration.ofHours(hours)) > 0;
    }

    /** The run's maxRunHours; -1 when its spec cannot be read (such a run counts as expired). */
    private static int hours(RunRecord run) {
        try {
            return RunSpecs.fromNormalized(run.specJson()).maxRunHours();
        } catch (RuntimeException unreadable) {
            return -1;
        }
    }

    /** Writes the orphans into the run's record (creating one for an unknown run), so Teardown finds them. */
    private void adopt(String runId, Optional<RunRecord> record, List<TaggedResources.Found> orphans) {
        if (record.isEmpty()) {
            var spec = Json.object().put("runId", runId);
            spec.putObject("cluster").put("mode", "existing").put("name", "unknown");
            store.create(runId, Json.write(RunSpecs.normalize(Json.write(spec))), null);
        }
        store.update(runId, r -> {
            var adopted = CleanupRecord.restarted(r);
            for (TaggedResources.Found f : orphans) {
                String known = adopted.resources().get(f.key()).orElse(null);
                if (known == null) {
                    adopted = adopted.withResource(f.key(), f.id());
                } else if (!known.equals(f.id())) {
                    LOG.warning(() ->
                            "run " + runId + " has " + f.ref() + " besides " + known + "; the next sweep takes it");
                }
            }
            return adopted;
        });
    }

    /**
     * An expired run whose pipeline is still running is stopped, its record saying why
     * (RunExpired): Cleanup tears down only a run that has ended, and the safety net
     * starts it once the execution is ABORTED. False when the execution has ended or is gone
     * (Step Functions keeps it 90 days): the janitor cleans up itself.
     */
    private boolean stopPipeline(RunRecord run) {
        String arn = io.trainplane.aws.ExecutionArns.of(pipelineArn.get(), run.runId());
        try {
            if (sfn.get().describeExecution(r -> r.executionArn(arn)).status() != ExecutionStatus.RUNNING) {
                return false;
            }
        } catch (ExecutionDoesNotExistException gone) {
            return false;
        }
        String cause = "the run went on longer than its maxRunHours (" + hours(run) + " h): the janitor stopped it"
                + " and the safety net cleaned up";
        store.update(
                run.runId(), r -> r.error() != null ? r : r.withError(new RunError(STATE, EXPIRED_ERROR, cause, null)));
        sfn.get().stopExecution(r -> r.executionArn(arn).error(EXPIRED_ERROR).cause(cause));
        return true;
    }

    private boolean start(String runId, Instant now) {
        String name = executionName(runId, now);
        var input = Json.object().put("runId", runId).put("reason", CloseRunStep.Reason.ORPHANED.name());
        try {
            sfn.get().startExecution(r -> r.stateMachineArn(cleanupStateMachineArn.get())
                    .name(name)
                    .input(Json.write(input)));
            return true;
        } catch (ExecutionAlreadyExistsException e) {
            return false;
        }
    }

    /** {@code janitor-<runId>-<yyyyMMddHH>}: one cleanup per run per hour, within Step Functions' 80 characters. */
    static String executionName(String runId, Instant now) {
        String id = runId.length() > 60 ? runId.substring(0, 60) : runId;
        return "janitor-" + id + "-" + HOUR.format(now);
    }
}
