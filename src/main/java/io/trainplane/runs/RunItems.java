package io.trainplane.runs;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How run records and timeline entries map to DynamoDB items, and back. Strings as S, the
 * phase as its label (S), the resources as a map by their keys' names ({@link RunResources}: text
 * as S, flags as BOOL, lists as L of S, instants as S), the metrics as a map of N, the error as a map of S (with what a failed
 * cleanup left as a map in it), the lost events as a list of maps of S, instants as fixed-width
 * ISO strings ({@link IsoTime}), the interruptions as a list of maps (text as S, numbers as N), the version as N. A null field is an absent attribute; an empty
 * map is an empty M; no lost events (no interruptions) is an absent attribute (records written before they existed
 * read the same way).
 *
 * <p>Records written before the resources were typed hold every resource as S (a flag as
 * {@code "true"}, the opened mount targets space-separated, each deleted resource under
 * {@code cleanup/deleted/<key>}): they are read into the typed form, and written back typed on the
 * next update.
 */
final class RunItems {
    static final String PK = "pk";
    static final String SK = "sk";
    static final String RUN_SK = "RUN";
    static final String STEP_SK_PREFIX = "STEP#";
    /** The training's progress: one item per run, overwritten by each look (no growth per poll). */
    static final String PROGRESS_SK = "PROGRESS";
    /** A packed directory's code (ConfigMap route), beside the record until the ConfigMap is made. */
    static final String CODE_SK = "CODE";

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
    static final String INTERRUPTIONS = "interruptions";
    /** The run's outputs in S3 (a map of strings), absent until CollectResults records them. */
    static final String OUTPUTS = "outputs";
    /** What the run really used, priced (a map: priceTable S, hours N, total N, lines L of M, basis L of S), absent until it ended. */
    static final String COST = "cost";

    static final String CREATED_AT = "createdAt";
    static final String UPDATED_AT = "updatedAt";
    static final String VERSION = "version";

    static final String STATE = "state";
    static final String STARTED = "started";
    static final String ENDED = "ended";
    static final String OUTCOME = "outcome";
    static final String DETAIL = "detail";

    /** The attributes a listing reads. */
    static final List<String> SUMMARY_ATTRIBUTES =
            List.of(RUN_ID, STATUS, PHASE, CREATED_AT, UPDATED_AT, COST, METRICS, SPEC);

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
    private static final String POD = "pod";
    private static final String INDEX = "index";
    private static final String NODE = "node";
    private static final String REASON = "reason";
    private static final String MESSAGE = "message";
    private static final String SEEN_AT = "seenAt";
    private static final String RESUMED_AT = "resumedAt";
    private static final String LOST_MINUTES = "lostMinutes";
    private static final String LOST_COST = "lostCost";
    private static final String PRICE_TABLE = "priceTable";
    private static final String HOURS = "hours";
    private static final String TOTAL = "total";
    private static final String LINES = "lines";
    private static final String BASIS = "basis";
    private static final String ITEM = "item";
    private static final String QUANTITY = "quantity";
    private static final String UNIT = "unit";
    private static final String UNIT_PRICE = "unitPrice";
    private static final String LINE_COST = "cost";
    /** DynamoDB's number range: magnitudes from 1E-130 up to (not including) 1E+126. */
    private static final double MIN_MAGNITUDE = 1e-130;

    private static final double MAX_MAGNITUDE = 1e126;
    /**
     * How records written before the resources were typed noted a deleted resource: under
     * {@code cleanup/deleted/<its key>}, its value named by the prefix here (as the events name it).
     */
    private static final String LEGACY_DELETED_PREFIX = "cleanup/deleted/";

    private static final Map<String, String> LEGACY_DELETED = legacyDeleted();

    private RunItems() {}

    static String pk(String runId) {
        return "RUN#" + runId;
    }

    /** A claim ({@link RunStore#claim}): one partition a kind, one item a thing claimed. */
    static Map<String, AttributeValue> claimKey(String partition, String ref) {
        return Map.of(PK, s(partition), SK, s(ref));
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
        if (run.phase() != null) {
            item.put(PHASE, s(run.phase().label()));
        }
        putIfPresent(item, EXECUTION_ARN, run.executionArn());
        item.put(RESOURCES, AttributeValue.fromM(resourcesMap(run.resources())));
        Map<String, AttributeValue> metrics = new LinkedHashMap<>();
        run.metrics().forEach((name, value) -> metrics.put(name, number(run.runId(), name, value)));
        item.put(METRICS, AttributeValue.fromM(metrics));
        if (run.error() != null) {
            item.put(ERROR, AttributeValue.fromM(errorMap(run.error())));
        }
        if (!run.lostEvents().isEmpty()) {
            item.put(
                    LOST_EVENTS,
                    AttributeValue.fromL(run.lostEvents().stream()
                            .map(RunItems::lostEventMap)
                            .map(AttributeValue::fromM)
                            .toList()));
        }
        if (!run.interruptions().isEmpty()) {
            item.put(
                    INTERRUPTIONS,
                    AttributeValue.fromL(run.interruptions().stream()
                            .map(i -> AttributeValue.fromM(interruptionMap(run.runId(), i)))
                            .toList()));
        }
        if (run.outputs() != null) {
            Map<String, AttributeValue> outputs = new LinkedHashMap<>();
            outputs.put("s3Uri", s(run.outputs().s3Uri()));
            putIfPresent(outputs, "modelUri", run.outputs().modelUri());
            putIfPresent(outputs, "modelSha256", run.outputs().modelSha256());
            putIfPresent(outputs, "checkpoint", run.outputs().checkpoint());
            putIfPresent(outputs, "checkpointSha256", run.outputs().checkpointSha256());
            item.put(OUTPUTS, AttributeValue.fromM(outputs));
        }
        if (run.cost() != null) {
            item.put(COST, AttributeValue.fromM(costMap(run.runId(), run.cost())));
        }
        item.put(CREATED_AT, s(IsoTime.format(run.createdAt())));
        item.put(UPDATED_AT, s(IsoTime.format(run.updatedAt())));
        item.put(VERSION, AttributeValue.fromN(Long.toString(run.version())));
        return item;
    }

    static RunRecord run(Map<String, AttributeValue> item) {
        Map<String, Double> metrics = new TreeMap<>();
        item.get(METRICS).m().forEach((name, value) -> metrics.put(name, Double.parseDouble(value.n())));
        AttributeValue error = item.get(ERROR);
        AttributeValue lost = item.get(LOST_EVENTS);
        AttributeValue interruptions = item.get(INTERRUPTIONS);
        AttributeValue outputs = item.get(OUTPUTS);
        AttributeValue cost = item.get(COST);
        return new RunRecord(
                string(item, RUN_ID),
                string(item, SPEC),
                string(item, SPEC_HASH),
                RunStatus.valueOf(string(item, STATUS)),
                phase(item),
                string(item, EXECUTION_ARN),
                resources(item.get(RESOURCES).m()),
                metrics,
                error == null ? null : error(error.m()),
                lost == null
                        ? List.of()
                        : lost.l().stream().map(v -> lostEvent(v.m())).toList(),
                interruptions == null
                        ? List.of()
                        : interruptions.l().stream()
                                .map(v -> interruption(v.m()))
                                .toList(),
                outputs == null
                        ? null
                        : new RunOutputs(
                                string(outputs.m(), "s3Uri"),
                                string(outputs.m(), "modelUri"),
                                string(outputs.m(), "modelSha256"),
                                string(outputs.m(), "checkpoint"),
                                string(outputs.m(), "checkpointSha256")),
                cost == null ? null : cost(cost.m()),
                IsoTime.parse(string(item, CREATED_AT)),
                IsoTime.parse(string(item, UPDATED_AT)),
                Long.parseLong(item.get(VERSION).n()));
    }

    /** A listing line; reads only the attributes {@link #SUMMARY_ATTRIBUTES} names. */
    static RunSummary summary(Map<String, AttributeValue> item) {
        String metric =
                RunSummary.gateMetric(item.containsKey(SPEC) ? item.get(SPEC).s() : null);
        return new RunSummary(
                string(item, RUN_ID),
                RunStatus.valueOf(string(item, STATUS)),
                phase(item),
                IsoTime.parse(string(item, CREATED_AT)),
                IsoTime.parse(string(item, UPDATED_AT)),
                item.containsKey(COST)
                        ? Double.valueOf(item.get(COST).m().get(TOTAL).n())
                        : null,
                item.containsKey(COST)
                        ? Double.valueOf(item.get(COST).m().get(HOURS).n())
                        : null,
                metric,
                item.containsKey(METRICS) && item.get(METRICS).m().containsKey(metric)
                        ? Double.valueOf(item.get(METRICS).m().get(metric).n())
                        : null);
    }

    private static Map<String, AttributeValue> costMap(String runId, RunCost cost) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        map.put(PRICE_TABLE, s(cost.priceTable()));
        map.put(HOURS, number(runId, "cost hours", cost.hours()));
        map.put(TOTAL, number(runId, "cost total", cost.total()));
        List<AttributeValue> lines = new ArrayList<>();
        for (RunCost.Line l : cost.lines()) {
            Map<String, AttributeValue> line = new LinkedHashMap<>();
            line.put(ITEM, s(l.item()));
            line.put(QUANTITY, number(runId, "cost quantity", l.quantity()));
            line.put(UNIT, s(l.unit()));
            if (l.unitPrice() != null) {
                line.put(UNIT_PRICE, number(runId, "cost unit price", l.unitPrice()));
                line.put(LINE_COST, number(runId, "cost of " + l.item(), l.cost()));
            }
            lines.add(AttributeValue.fromM(line));
        }
        map.put(LINES, AttributeValue.fromL(lines));
        map.put(
                BASIS,
                AttributeValue.fromL(cost.basis().stream().map(RunItems::s).toList()));
        return map;
    }

    private static RunCost cost(Map<String, AttributeValue> map) {
        List<RunCost.Line> lines = map.get(LINES).l().stream()
                .map(v -> {
                    Map<String, AttributeValue> l = v.m();
                    return new RunCost.Line(
                            string(l, ITEM),
                            Double.parseDouble(l.get(QUANTITY).n()),
                            string(l, UNIT),
                            l.containsKey(UNIT_PRICE)
                                    ? Double.valueOf(l.get(UNIT_PRICE).n())
                                    : null,
                            l.containsKey(LINE_COST)
                                    ? Double.valueOf(l.get(LINE_COST).n())
                                    : null);
                })
                .toList();
        return new RunCost(
                string(map, PRICE_TABLE),
                Double.parseDouble(map.get(HOURS).n()),
                lines,
                Double.parseDouble(map.get(TOTAL).n()),
                map.get(BASIS).l().stream().map(AttributeValue::s).toList());
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

    static Map<String, AttributeValue> progressItem(String runId, TrainingProgress p) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, s(pk(runId)));
        item.put(SK, s(PROGRESS_SK));
        item.put("epoch", AttributeValue.fromN(Integer.toString(p.epoch())));
        item.put("epochs", AttributeValue.fromN(Integer.toString(p.epochs())));
        item.put("loss", AttributeValue.fromN(Double.toString(p.loss())));
        item.put(AT, s(IsoTime.format(p.at())));
        item.put("since", s(IsoTime.format(p.since())));
        return item;
    }

    static TrainingProgress progress(Map<String, AttributeValue> item) {
        return new TrainingProgress(
                Integer.parseInt(item.get("epoch").n()),
                Integer.parseInt(item.get("epochs").n()),
                Double.parseDouble(item.get("loss").n()),
                IsoTime.parse(string(item, AT)),
                IsoTime.parse(string(item, "since")));
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

    private static RunPhase phase(Map<String, AttributeValue> item) {
        String label = string(item, PHASE);
        return label == null ? null : RunPhase.ofLabel(label);
    }

    static Map<String, AttributeValue> resourcesMap(RunResources resources) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        resources.asMap().forEach((name, value) -> {
            RunResources.Key<?> key = RunResources.key(name).orElseThrow();
            map.put(
                    name,
                    switch (key.type()) {
                        case TEXT -> s((String) value);
                        case FLAG -> AttributeValue.fromBool((Boolean) value);
                        case TEXTS ->
                            AttributeValue.fromL(((List<?>) value)
                                    .stream().map(v -> s((String) v)).toList());
                        case TIME -> s(IsoTime.format((Instant) value));
                    });
        });
        return map;
    }

    /**
     * The resources of a stored map, typed or in the string form of records written before; a
     * name no key has (none was ever written) is left out.
     */
    static RunResources resources(Map<String, AttributeValue> map) {
        RunResources resources = RunResources.NONE;
        List<String> legacyDeleted = new ArrayList<>();
        for (RunResources.Key<?> key : RunResources.KEYS) {
            AttributeValue value = map.get(key.name());
            if (value != null) {
                resources = with(resources, key, value);
            }
        }
        for (Map.Entry<String, String> legacy : LEGACY_DELETED.entrySet()) {
            AttributeValue value = map.get(LEGACY_DELETED_PREFIX + legacy.getKey());
            if (value != null && value.s() != null) {
                legacyDeleted.add(legacy.getValue() + value.s());
            }
        }
        if (!legacyDeleted.isEmpty()) {
            List<String> deleted = new ArrayList<>(resources.list(RunResources.CLEANUP_DELETED));
            legacyDeleted.stream().filter(ref -> !deleted.contains(ref)).forEach(deleted::add);
            resources = resources.with(RunResources.CLEANUP_DELETED, deleted);
        }
        return resources;
    }

    @SuppressWarnings("unchecked")
    private static RunResources with(RunResources resources, RunResources.Key<?> key, AttributeValue value) {
        String text = value.s();
        return switch (key.type()) {
            case TEXT -> resources.with((RunResources.Key<String>) key, text);
            case FLAG ->
                resources.with(
                        (RunResources.Key<Boolean>) key,
                        value.bool() != null ? value.bool() : Boolean.parseBoolean(text));
            case TEXTS ->
                resources.with(
                        (RunResources.Key<List<String>>) key,
                        value.hasL()
                                ? value.l().stream().map(AttributeValue::s).toList()
                                : text.isBlank()
                                        ? List.of()
                                        : List.of(text.trim().split(" +")));
            case TIME -> resources.with((RunResources.Key<Instant>) key, IsoTime.parse(text));
        };
    }

    private static Map<String, String> legacyDeleted() {
        Map<String, String> prefixes = new LinkedHashMap<>();
        prefixes.put(RunResources.NAMESPACE.name(), "kubernetes:Namespace/");
        prefixes.put(RunResources.NODE_GROUP.name(), "eks:nodegroup/");
        prefixes.put(RunResources.LAUNCH_TEMPLATE.name(), "cloudcontrol:AWS::EC2::LaunchTemplate/");
        prefixes.put(RunResources.PLACEMENT_GROUP.name(), "cloudcontrol:AWS::EC2::PlacementGroup/");
        prefixes.put(RunResources.EKS_CLUSTER.name(), "eks:cluster/");
        prefixes.put(RunResources.LOG_GROUP.name(), "logs:log-group/");
        prefixes.put(RunResources.FILE_SYSTEM.name(), "efs:file-system/");
        return prefixes;
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
        return new RunError(
                string(map, STATE),
                string(map, ERROR),
                string(map, CAUSE),
                string(map, LOG_TAIL),
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
                .map(v -> new Leftover(string(v.m(), KIND), string(v.m(), ID), string(v.m(), REMOVED_BY)))
                .toList();
        return new CleanupFailure(string(map, ERROR), string(map, CAUSE), left, string(map, COMMAND));
    }

    private static Map<String, AttributeValue> lostEventMap(LostEvent lost) {
        return Map.of(
                DETAIL_TYPE,
                s(lost.detailType()),
                STEP,
                s(lost.step()),
                ERROR,
                s(lost.error()),
                AT,
                s(IsoTime.format(lost.at())));
    }

    private static LostEvent lostEvent(Map<String, AttributeValue> map) {
        return new LostEvent(
                string(map, DETAIL_TYPE), string(map, STEP), string(map, ERROR), IsoTime.parse(string(map, AT)));
    }

    private static Map<String, AttributeValue> interruptionMap(String runId, Interruption i) {
        Map<String, AttributeValue> map = new LinkedHashMap<>();
        map.put(POD, s(i.pod()));
        if (i.index() != null) {
            map.put(INDEX, AttributeValue.fromN(Integer.toString(i.index())));
        }
        putIfPresent(map, NODE, i.node());
        map.put(REASON, s(i.reason()));
        putIfPresent(map, MESSAGE, i.message());
        map.put(AT, s(IsoTime.format(i.at())));
        map.put(SEEN_AT, s(IsoTime.format(i.seenAt())));
        if (i.resumedAt() != null) {
            map.put(RESUMED_AT, s(IsoTime.format(i.resumedAt())));
        }
        if (i.lostMinutes() != null) {
            map.put(LOST_MINUTES, number(runId, "interruption lostMinutes", i.lostMinutes()));
        }
        if (i.lostCost() != null) {
            map.put(LOST_COST, number(runId, "interruption lostCost", i.lostCost()));
        }
        return map;
    }

    private static Interruption interruption(Map<String, AttributeValue> map) {
        String resumedAt = string(map, RESUMED_AT);
        return new Interruption(
                string(map, POD),
                map.containsKey(INDEX) ? Integer.valueOf(map.get(INDEX).n()) : null,
                string(map, NODE),
                string(map, REASON),
                string(map, MESSAGE),
                IsoTime.parse(string(map, AT)),
                IsoTime.parse(string(map, SEEN_AT)),
                resumedAt == null ? null : IsoTime.parse(resumedAt),
                map.containsKey(LOST_MINUTES)
                        ? Double.valueOf(map.get(LOST_MINUTES).n())
                        : null,
                map.containsKey(LOST_COST) ? Double.valueOf(map.get(LOST_COST).n()) : null);
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
