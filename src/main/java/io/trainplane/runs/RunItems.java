package io.trainplane.runs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How run records and timeline entries map to DynamoDB items, and back. Strings as S, the
 * resources as a map of S, the metrics as a map of N, the error as a map of S (with what a failed
 * cleanup left as a map in it), the lost events as a list of maps of S, instants as fixed-width
 * ISO strings ({@link IsoTime}), the version as N. A null field is an absent attribute; an empty
 * map is an empty M; no lost events is an absent attribute (records written before they existed
 * read the same way).
 */
final class RunItems {
    static final String PK = "pk";
    static final String SK = "sk";
    static final String RUN_SK = "RUN";
    static final String STEP_SK_PREFIX = "STEP#";

    static final String RUN_ID = "runId";
    static final String SPEC = "spec";
    static final String SPEC_HASH = "specHash";
    static final String STATUS = "status";
    static final String PHASE = "phase";
    static final String EXECUTION_ARN = "executionArn";
    static final String RESOURCES = "resources";
    static final String METRICS = "metrics";
    static final String ERROR = "error";
    static final String LOST_EVENTS = "lostEvents";
    static final String CREATED_AT = "createdAt";
    static final String UPDATED_AT = "updatedAt";
    static final String VERSION = "version";

    static final String STATE = "state";
    static final String STARTED = "started";
    static final String ENDED = "ended";
    static final String OUTCOME = "outcome";
    static final String DETAIL = "detail";

    /** The attributes a listing reads. */
    static final List<String> SUMMARY_ATTRIBUTES = List.of(RUN_ID, STATUS, PHASE, CREATED_AT, UPDATED_AT);

    private static final String CAUSE = "cause";
    private static final String LOG_TAIL = "logTail";
    private static final String CLEANUP = "cleanup";
    private static final String LEFT_BEHIND = "leftBehind";
    private static final String COMMAND = "command";
    private static final String KIND = "kind";
    private static final String ID = "id";
    private static final String REMOVED_BY = "removedBy";
    private static final String DETAIL_TYPE = "detailType";
    private static final String STEP = "step";
    private static final String AT = "at";
    /** DynamoDB's number range: magnitudes from 1E-130 up to (not including) 1E+126. */
    private static final double MIN_MAGNITUDE = 1e-130;
    private static final double MAX_MAGNITUDE = 1e126;

    private RunItems() {
    }

    static String pk(String runId) {
        return "RUN#" + runId;
    }

    static Map<String, AttributeValue> runKey(String runId) {
        return Map.of(PK, s(pk(runId)), SK, s(RUN_SK));
    }

    static String stepSk(StepEntry step) {
        return STEP_SK_PREFIX + IsoTime.format(step.started()) + "#" + step.state();
    }

    static Map<String, AttributeValue> runItem(RunRecord run) {
        Map<String, AttributeValue> item = new HashMap<>(runKey(run.runId()));
        item.put(RUN_ID, s(run.runId()));
        item.put(SPEC, s(run.specJson()));
        item.put(SPEC_HASH, s(run.specHash()));
        item.put(STATUS, s(run.status().name()));
        putIfPresent(item, PHASE, run.phase());
        putIfPresent(item, EXECUTION_ARN, run.executionArn());
        Map<String, AttributeValue> resources = new LinkedHashMap<>();
        run.resources().forEach((key, value) -> resources.put(key, s(value)));
        item.put(RESOURCES, AttributeValue.fromM(resources));
        Map<String, AttributeValue> metrics = new LinkedHashMap<>();
        run.metrics().forEach((name, value) -> metrics.put(name, number(run.runId(), name, value)));
        item.put(METRICS, AttributeValue.fromM(metrics));
        if (run.error() != null) {
            item.put(ERROR, AttributeValue.fromM(errorMap(run.error())));
        }
        if (!run.lostEvents().isEmpty()) {
            item.put(LOST_EVENTS, AttributeValue.fromL(run.lostEvents().stream().map(RunItems::lostEventMap)
                    .map(AttributeValue::fromM).toList()));
        }
        item.put(CREATED_AT, s(IsoTime.format(run.createdAt())));
        item.put(UPDATED_AT, s(IsoTime.format(run.updatedAt())));
        item.put(VERSION, AttributeValue.fromN(Long.toString(run.version())));
        return item;
    }

    static RunRecord run(Map<String, AttributeValue> item) {
        Map<String, String> resources = new TreeMap<>();
        item.get(RESOURCES).m().forEach((key, value) -> resources.put(key, value.s()));
        Map<String, Double> metrics = new TreeMap<>();
        item.get(METRICS).m().forEach((name, value) -> metrics.put(name, Double.parseDouble(value.n())));
        AttributeValue error = item.get(ERROR);
        AttributeValue lost = item.get(LOST_EVENTS);
        return new RunRecord(
                string(item, RUN_ID),
                string(item, SPEC),
                string(item, SPEC_HASH),
                RunStatus.valueOf(string(item, STATUS)),
                string(item, PHASE),
                string(item, EXECUTION_ARN),
                resources,
                metrics,
                error == null ? null : error(error.m()),
                lost == null ? List.of() : lost.l().stream().map(v -> lostEvent(v.m())).toList(),
                IsoTime.parse(string(item, CREATED_AT)),
                IsoTime.parse(string(item, UPDATED_AT)),
                Long.parseLong(item.get(VERSION).n()));
    }

    /** A listing line; reads only the attributes {@link #SUMMARY_ATTRIBUTES} names. */
    static RunSummary summary(Map<String, AttributeValue> item) {
        return new RunSummary(
                string(item, RUN_ID),
                RunStatus.valueOf(string(item, STATUS)),
                string(item, PHASE),
                IsoTime.parse(string(item, CREATED_AT)),
                IsoTime.parse(string(item, UPDATED_AT)));
    }

    static Map<String, AttributeValue> stepItem(String runId, StepEntry step) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(pk(runId)));
        item.put(SK, s(stepSk(step)));
        item.put(STATE, s(step.state()));
        item.put(STARTED, s(IsoTime.format(step.started())));
        if (step.ended() != null) {
            item.put(ENDED, s(IsoTime.format(step.ended())));
        }
        putIfPresent(item, OUTCOME, step.outcome());
        putIfPresent(item, DETAIL, step.detail());
        return item;
    }

    static StepEntry step(Map<String, AttributeValue> item) {
        String ended = string(item, ENDED);
        return new StepEntry(
                string(item, STATE),
                IsoTime.parse(string(item, STARTED)),
                ended == null ? null : IsoTime.parse(ended),
                string(item, OUTCOME),
                string(item, DETAIL));
    }

    static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    private static AttributeValue number(String runId, String name, double value) {
        double magnitude = Math.abs(value);
        if (value != 0.0 && (magnitude < MIN_MAGNITUDE || magnitude >= MAX_MAGNITUDE)) {
            throw new IllegalArgumentException("run " + runId + ": metric " + name + " = " + value
                    + " is outside DynamoDB's number range (1E-130 to 1E+126 in magnitude)");
        }
        return AttributeValue.fromN(Double.toString(value));
    }

    private static Map<String, AttributeValue> errorMap(RunError error) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        putIfPresent(map, STATE, error.state());
        putIfPresent(map, ERROR, error.error());
        putIfPresent(map, CAUSE, error.cause());
        putIfPresent(map, LOG_TAIL, error.logTail());
        if (error.cleanup() != null) {
            map.put(CLEANUP, AttributeValue.fromM(cleanupMap(error.cleanup())));
        }
        return map;
    }

    private static RunError error(Map<String, AttributeValue> map) {
        AttributeValue cleanup = map.get(CLEANUP);
        return new RunError(string(map, STATE), string(map, ERROR), string(map, CAUSE), string(map, LOG_TAIL),
                cleanup == null ? null : cleanup(cleanup.m()));
    }

    private static Map<String, AttributeValue> cleanupMap(CleanupFailure cleanup) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        putIfPresent(map, ERROR, cleanup.error());
        putIfPresent(map, CAUSE, cleanup.cause());
        putIfPresent(map, COMMAND, cleanup.command());
        List<AttributeValue> left = new ArrayList<>();
        for (Leftover l : cleanup.leftBehind()) {
            left.add(AttributeValue.fromM(Map.of(KIND, s(l.kind()), ID, s(l.id()), REMOVED_BY, s(l.removedBy()))));
        }
        map.put(LEFT_BEHIND, AttributeValue.fromL(left));
        return map;
    }

    private static CleanupFailure cleanup(Map<String, AttributeValue> map) {
        List<Leftover> left = map.get(LEFT_BEHIND).l().stream()
                .map(v -> new Leftover(string(v.m(), KIND), string(v.m(), ID), string(v.m(), REMOVED_BY))).toList();
        return new CleanupFailure(string(map, ERROR), string(map, CAUSE), left, string(map, COMMAND));
    }

    private static Map<String, AttributeValue> lostEventMap(LostEvent lost) {
        return Map.of(DETAIL_TYPE, s(lost.detailType()), STEP, s(lost.step()), ERROR, s(lost.error()),
                AT, s(IsoTime.format(lost.at())));
    }

    private static LostEvent lostEvent(Map<String, AttributeValue> map) {
        return new LostEvent(string(map, DETAIL_TYPE), string(map, STEP), string(map, ERROR), IsoTime.parse(string(map, AT)));
    }

    private static void putIfPresent(Map<String, AttributeValue> item, String name, String value) {
        if (value != null) {
            item.put(name, s(value));
        }
    }

    private static String string(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null ? null : value.s();
    }
}
