package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunEvents;
import io.trainplane.core.Json;
import io.trainplane.runs.RunStatus;
import io.trainplane.runs.RunStore;
import io.trainplane.runs.RunSummary;
import io.trainplane.spec.InvalidSpecException;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import java.util.logging.Logger;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;

/**
 * Scheduled retraining: EventBridge Scheduler invokes this with
 * {@code {"series": "retraining", "spec": {...}, "scheduledTime": "2026-03-01T03:00:00Z"}} and it
 * starts one TrainingPipeline execution per firing. The runId is {@code <series>-yyyyMMdd-HHmm} of
 * the scheduled time (UTC), so a firing delivered twice starts one run: Step Functions refuses a
 * second execution of the same name.
 *
 * <p>Overlap policy, when a run of the series (runId {@code <series>-yyyyMMdd-HHmm}, status not terminal) is
 * still going: {@link Overlap#SKIP} (the default) starts nothing and publishes
 * {@code Scheduled Run Skipped}; {@link Overlap#START} starts the new run beside it.
 */
public final class StartScheduledRunStep implements Step {
    private static final Logger LOG = Logger.getLogger(StartScheduledRunStep.class.getName());
    /** What "-yyyyMMdd-HHmm" adds to the series name. */
    static final int SUFFIX_LENGTH = 14;

    public static final int MAX_SERIES_LENGTH = Names.MAX_RUN_ID - SUFFIX_LENGTH;
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmm", Locale.ROOT);
    /** Non-terminal runs looked at per status; a series has one or a few running at once. */
    private static final int ACTIVE_LIMIT = 1000;

    /** What to do when a run of the series is still going. */
    public enum Overlap {
        SKIP,
        START;

        /** {@code skip} or {@code start} (any case); empty or null is {@link #SKIP}. */
        public static Overlap parse(String value) {
            if (value == null || value.isBlank()) {
                return SKIP;
            }
            return switch (value.trim().toLowerCase(Locale.ROOT)) {
                case "skip" -> SKIP;
                case "start" -> START;
                default ->
                    throw new IllegalArgumentException(
                            "RETRAINING_OVERLAP must be 'skip' or 'start', not '" + value + "'");
            };
        }
    }

    private final RunStore store;
    private final Supplier<RunEvents> events;
    private final Supplier<SfnClient> sfn;
    private final Supplier<String> trainingPipelineArn;
    private final Clock clock;
    private final Overlap overlap;

    /**
     * EventBridge, Step Functions and the TrainingPipeline's ARN as suppliers: a firing uses one
     * or the other, and their SDK clients are built on first use. The policy comes from
     * {@code RETRAINING_OVERLAP} ({@link StepWiring#startScheduledRun}).
     */
    public StartScheduledRunStep(
            RunStore store,
            Supplier<RunEvents> events,
            Supplier<SfnClient> sfn,
            Supplier<String> trainingPipelineArn,
            Clock clock,
            Overlap overlap) {
        this.store = store;
        this.events = events;
        this.sfn = sfn;
        this.trainingPipelineArn = trainingPipelineArn;
        this.clock = clock;
        this.overlap = overlap;
    }

    @Override
    public JsonNode run(JsonNode input) {
        String series = input.path("series").asText("");
        String scheduledTime = input.path("scheduledTime").asText("");
        String runId = runId(series, scheduledTime);
        ObjectNode spec = spec(input.path("spec"), runId, KubernetesVersions.day(clock.instant()));

        ObjectNode result =
                Json.object().put("runId", runId).put("series", series).put("scheduledTime", scheduledTime);
        List<RunSummary> active = activeRuns(series);
        if (active.stream().anyMatch(r -> r.runId().equals(runId))) {
            LOG.info(() -> "run " + runId + " of this firing is already going");
            return result.put("action", "already-started");
        }
        if (!active.isEmpty() && overlap == Overlap.SKIP) {
            ObjectNode detail = Json.object()
                    .put("runId", runId)
                    .put("series", series)
                    .put("scheduledTime", scheduledTime)
                    .put("reason", "a run of the series is still going (RetrainingOverlap is skip)");
            ArrayNode runs = detail.putArray("activeRuns");
            active.forEach(r -> runs.addObject()
                    .put("runId", r.runId())
                    .put("status", r.status().name()));
            events.get().publish("Scheduled Run Skipped", detail);
            LOG.info(() -> "scheduled run " + runId + " skipped: " + active.size() + " run(s) of series " + series
                    + " still going");
            result.put("action", "skipped");
            result.set("activeRuns", runs.deepCopy());
            return result;
        }
        try {
            String arn = sfn.get()
                    .startExecution(r -> r.stateMachineArn(trainingPipelineArn.get())
                            .name(new Names(runId).executionName())
                            .input(Json.write(spec)))
                    .executionArn();
            LOG.info(() -> "scheduled run " + runId + " started: " + arn);
            return result.put("action", "started").put("executionArn", arn);
        } catch (ExecutionAlreadyExistsException e) {
            LOG.info(() -> "scheduled run " + runId + " was already started by this firing");
            return result.put("action", "already-started");
        }
    }

    /**
     * The run id of one firing: {@code <series>-yyyyMMdd-HHmm}, the scheduled time in UTC.
     *
     * @throws InvalidSpecException when the series is not a valid run id prefix or the time is not ISO 8601
     */
    public static String runId(String series, String scheduledTime) {
        if (!Names.isValidRunId(series) || series.length() > MAX_SERIES_LENGTH) {
            throw new InvalidSpecException(new SpecProblem(
                    "/series",
                    "series '" + series + "' is not a valid run id prefix",
                    "use 1 to " + MAX_SERIES_LENGTH + " lowercase letters, digits and '-', starting and ending with"
                            + " a letter or a digit (the RetrainingSeries parameter)"));
        }
        Instant time;
        try {
            time = OffsetDateTime.parse(scheduledTime).toInstant();
        } catch (DateTimeParseException e) {
            throw new InvalidSpecException(new SpecProblem(
                    "/scheduledTime",
                    "scheduledTime '" + scheduledTime + "' is not an ISO 8601 date-time",
                    "the schedule's input passes <aws.scheduler.scheduled-time>, e.g. 2026-03-01T03:00:00Z"));
        }
        String runId = series + "-" + RUN_ID_TIME.format(time.atOffset(ZoneOffset.UTC));
        if (!Names.isValidRunId(runId)) {
            throw new IllegalStateException("derived an invalid run id: " + runId);
        }
        return runId;
    }

    /**
     * The spec with the firing's runId, validated for a run starting on {@code runDay} (every
     * problem at once, each naming its field).
     */
    static ObjectNode spec(JsonNode given, String runId, LocalDate runDay) {
        JsonNode document = given;
        if (given.isTextual()) {
            document = readSpecText(given.asText());
        }
        if (!document.isObject()) {
            throw new InvalidSpecException(
                    new SpecProblem(
                            "/spec",
                            given.isMissingNode() || given.isNull()
                                    ? "the schedule's input has no spec"
                                    : "spec must be a JSON object",
                            "set the RetrainingSpec parameter to a run spec (a JSON object), e.g. the content of examples/quickstart.json"));
        }
        ObjectNode spec = ((ObjectNode) document).deepCopy();
        spec.put("runId", runId);
        RunSpecs.parse(spec, runDay);
        return spec;
    }

    private static JsonNode readSpecText(String text) {
        try {
            return Json.read(text);
        } catch (RuntimeException e) {
            throw new InvalidSpecException(new SpecProblem(
                    "/spec",
                    "spec is not valid JSON",
                    "set the RetrainingSpec parameter to a run spec (a JSON object)"));
        }
    }

    /**
     * Whether {@code runId} is a scheduled run of {@code series}: {@code <series>-yyyyMMdd-HHmm}, so that
     * series "nightly" does not count the runs of series "nightly-big".
     */
    static boolean ofSeries(String runId, String series) {
        return runId.length() == series.length() + SUFFIX_LENGTH
                && runId.startsWith(series + "-")
                && runId.substring(series.length()).matches("-[0-9]{8}-[0-9]{4}");
    }

    /** Runs of the series (runId {@code <series>-yyyyMMdd-HHmm}) whose status is not terminal, from the status index. */
    private List<RunSummary> activeRuns(String series) {
        List<RunSummary> active = new ArrayList<>();
        for (RunStatus status : RunStatus.values()) {
            if (status.isTerminal()) {
                continue;
            }
            store.listByStatus(status, ACTIVE_LIMIT).stream()
                    .filter(r -> ofSeries(r.runId(), series))
                    .forEach(active::add);
        }
        return active;
    }
}
