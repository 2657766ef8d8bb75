package io.trainplane.local.dynamodb;

import io.trainplane.runs.RunsTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;

/**
 * One sequence of DynamoDB operations, the ones the run store makes and the expression features
 * the twin's DynamoDB supports, written down as one line of outcome each (the answer, or the
 * error's code and message), so two implementations can be compared line by line.
 */
final class DifferentialScript {
    static final String TABLE = "Runs";
    private final DynamoDbClient dynamo;
    private final List<String> outcomes = new ArrayList<>();

    private DifferentialScript(DynamoDbClient dynamo) {
        this.dynamo = dynamo;
    }

    static List<String> run(DynamoDbClient dynamo) {
        DifferentialScript script = new DifferentialScript(dynamo);
        script.all();
        return script.outcomes;
    }

    private void all() {
        RunsTable.create(dynamo, TABLE);
        record("describe", () -> {
            var t = dynamo.describeTable(r -> r.tableName(TABLE)).table();
            var i = t.globalSecondaryIndexes().get(0);
            return t.keySchema() + " " + t.billingModeSummary().billingModeAsString() + " " + i.indexName() + " "
                    + i.keySchema() + " " + i.projection().projectionTypeAsString();
        });
        String[] statuses = {"RUNNING", "PENDING", "RUNNING", "SUCCEEDED", "RUNNING", "RUNNING", "FAILED"};
        for (int r = 0; r < statuses.length; r++) {
            Map<String, AttributeValue> run = run("r" + r, statuses[r], "2026-11-0" + (r + 1) + "T00:00:00Z", 1);
            record("create r" + r, () -> dynamo.putItem(b -> b.tableName(TABLE)
                            .item(run)
                            .conditionExpression("attribute_not_exists(#pk)")
                            .expressionAttributeNames(Map.of("#pk", "pk"))
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                    .attributes());
        }
        record(
                "create r0 again",
                () -> dynamo.putItem(b -> b.tableName(TABLE)
                        .item(run("r0", "PENDING", "2026-12-01T00:00:00Z", 1))
                        .conditionExpression("attribute_not_exists(#pk)")
                        .expressionAttributeNames(Map.of("#pk", "pk"))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        for (long expected : new long[] {1, 1, 2}) {
            record("replace r1 at version " + expected, () -> dynamo.putItem(b -> b.tableName(TABLE)
                            .item(run("r1", "RUNNING", "2026-11-02T00:00:00Z", expected + 1))
                            .conditionExpression("#version = :expected AND #status IN (:p, :r)")
                            .expressionAttributeNames(Map.of("#version", "version", "#status", "status"))
                            .expressionAttributeValues(Map.of(
                                    ":expected", n(Long.toString(expected)), ":p", s("PENDING"), ":r", s("RUNNING")))
                            .returnValues(ReturnValue.ALL_OLD))
                    .attributes());
        }
        steps();
        claims();
        updates();
        queries();
        deletes();
        record("scan in pages of 3", () -> {
            Map<String, String> all = new TreeMap<>();
            Map<String, AttributeValue> start = null;
            int pages = 0;
            do {
                Map<String, AttributeValue> from = start;
                var page = dynamo.scan(b -> b.tableName(TABLE).limit(3).exclusiveStartKey(from));
                page.items()
                        .forEach(
                                i -> all.put(i.get("pk").s() + "/" + i.get("sk").s(), canonical(i)));
                start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty()
                        ? page.lastEvaluatedKey()
                        : null;
                pages++;
            } while (start != null && pages < 20);
            return new ArrayList<>(all.values());
        });
        record("scan with a filter", () -> dynamo
                .scan(b -> b.tableName(TABLE)
                        .filterExpression("#s = :r AND NOT contains(#pk, :three)")
                        .expressionAttributeNames(Map.of("#s", "status", "#pk", "pk"))
                        .expressionAttributeValues(Map.of(":r", s("RUNNING"), ":three", s("3"))))
                .items()
                .stream()
                .map(i -> i.get("pk").s())
                .sorted()
                .toList());
    }

    private void steps() {
        Map<String, String> names = Map.of("#sk", "sk", "#ended", "ended");
        for (String label : new String[] {"open", "close", "late retry"}) {
            Map<String, AttributeValue> step = new HashMap<>(Map.of("pk", s("RUN#r1"), "sk", s("STEP#0001#Create")));
            if (!label.equals("open")) {
                step.put("ended", s("2026-11-02T00:05:00Z"));
            }
            if (label.equals("late retry")) {
                step.remove("ended");
            }
            record(
                    "step " + label,
                    () -> dynamo.putItem(b -> b.tableName(TABLE)
                            .item(step)
                            .conditionExpression("attribute_not_exists(#sk) OR attribute_not_exists(#ended)")
                            .expressionAttributeNames(names)));
        }
        dynamo.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("RUN#r1"), "sk", s("STEP#0002#Wait"))));
        dynamo.putItem(b -> b.tableName(TABLE).item(Map.of("pk", s("RUN#r1"), "sk", s("STEP#0003#Train"))));
        for (String at : new String[] {"2026-11-02T00:10:00Z", "2026-11-02T00:09:00Z", "2026-11-02T00:11:00Z"}) {
            record(
                    "progress at " + at,
                    () -> dynamo.putItem(b -> b.tableName(TABLE)
                            .item(Map.of("pk", s("RUN#r1"), "sk", s("PROGRESS"), "at", s(at)))
                            .conditionExpression("attribute_not_exists(#at) OR #at <= :at")
                            .expressionAttributeNames(Map.of("#at", "at"))
                            .expressionAttributeValues(Map.of(":at", s(at)))));
        }
    }

    private void claims() {
        for (String[] attempt : new String[][] {
            {"claim", "r1"},
            {"claim", "r1"},
            {"claim", "r2"},
            {"release", "r2"},
            {"release", "r1"},
            {"release", "r1"},
            {"claim", "r2"}
        }) {
            String runId = attempt[1];
            Map<String, AttributeValue> key = Map.of("pk", s("WARM"), "sk", s("cluster/group"));
            Map<String, String> names = Map.of("#run", "runId", "#at", "createdAt");
            record(
                    attempt[0] + " by " + runId,
                    () -> attempt[0].equals("claim")
                            ? dynamo.updateItem(b -> b.tableName(TABLE)
                                            .key(key)
                                            .updateExpression("SET #run = :run, #at = :at")
                                            .conditionExpression("attribute_not_exists(#run) OR #run = :run")
                                            .expressionAttributeNames(names)
                                            .expressionAttributeValues(Map.of(":run", s(runId), ":at", s("2026-11-03")))
                                            .returnValuesOnConditionCheckFailure(
                                                    ReturnValuesOnConditionCheckFailure.ALL_OLD))
                                    .attributes()
                            : dynamo.updateItem(b -> b.tableName(TABLE)
                                            .key(key)
                                            .updateExpression("REMOVE #run, #at")
                                            .conditionExpression("#run = :run")
                                            .expressionAttributeNames(names)
                                            .expressionAttributeValues(Map.of(":run", s(runId)))
                                            .returnValues(ReturnValue.ALL_NEW))
                                    .attributes());
        }
    }

    private void updates() {
        Map<String, AttributeValue> key = Map.of("pk", s("RUN#r2"), "sk", s("RUN"));
        Map<String, AttributeValue> values = Map.of(
                ":zero",
                n("0"),
                ":one",
                n("1"),
                ":empty",
                AttributeValue.fromL(List.of()),
                ":l",
                AttributeValue.fromL(List.of(s("a"))),
                ":tags",
                AttributeValue.fromSs(List.of("x", "y")),
                ":max",
                n("3"),
                ":r",
                s("RUNNING"),
                ":p",
                s("PEN"));
        for (ReturnValue returned : new ReturnValue[] {
            ReturnValue.ALL_NEW, ReturnValue.UPDATED_OLD, ReturnValue.UPDATED_NEW, ReturnValue.ALL_OLD
        }) {
            record("update returning " + returned, () -> dynamo.updateItem(b -> b.tableName(TABLE)
                            .key(key)
                            .updateExpression(
                                    "SET #c = if_not_exists(#c, :zero) + :one, #l = list_append(if_not_exists(#l,"
                                            + " :empty), :l), #d = #version - :one ADD #n :one, #t :tags")
                            .conditionExpression("(attribute_not_exists(#c) OR #c < :max) AND #s = :r"
                                    + " AND NOT begins_with(#s, :p) AND #version BETWEEN :zero AND :max")
                            .expressionAttributeNames(Map.of(
                                    "#c",
                                    "counter",
                                    "#l",
                                    "log",
                                    "#d",
                                    "down",
                                    "#n",
                                    "added",
                                    "#t",
                                    "tags",
                                    "#s",
                                    "status",
                                    "#version",
                                    "version"))
                            .expressionAttributeValues(values)
                            .returnValues(returned))
                    .attributes());
        }
        record("update remove and size", () -> dynamo.updateItem(b -> b.tableName(TABLE)
                        .key(key)
                        .updateExpression("REMOVE #t, down SET #s2 = :r")
                        .conditionExpression("size(#l) = :three AND contains(#t, :x) AND #s <> :p")
                        .expressionAttributeNames(Map.of("#t", "tags", "#l", "log", "#s", "status", "#s2", "note"))
                        .expressionAttributeValues(
                                Map.of(":three", n("3"), ":x", s("x"), ":p", s("PENDING"), ":r", s("RUNNING")))
                        .returnValues(ReturnValue.ALL_NEW))
                .attributes());
        record("update a new item", () -> dynamo.updateItem(b -> b.tableName(TABLE)
                        .key(Map.of("pk", s("FILE-SYSTEM"), "sk", s("fs-1")))
                        .updateExpression("SET runId = :r")
                        .expressionAttributeValues(Map.of(":r", s("r9")))
                        .returnValues(ReturnValue.ALL_NEW))
                .attributes());
        record(
                "update a key attribute",
                () -> dynamo.updateItem(b -> b.tableName(TABLE)
                        .key(key)
                        .updateExpression("SET sk = :r")
                        .expressionAttributeValues(Map.of(":r", s("X")))));
    }

    private void queries() {
        record("steps of r1", () -> dynamo.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("#pk = :pk AND begins_with(#sk, :prefix)")
                        .expressionAttributeNames(Map.of("#pk", "pk", "#sk", "sk"))
                        .expressionAttributeValues(Map.of(":pk", s("RUN#r1"), ":prefix", s("STEP#")))
                        .consistentRead(true))
                .items());
        for (String op : new String[] {"<", ">", "<=", ">="}) {
            record("steps of r1 with sk " + op, () -> dynamo
                    .query(b -> b.tableName(TABLE)
                            .keyConditionExpression("#pk = :pk AND #sk " + op + " :at")
                            .expressionAttributeNames(Map.of("#pk", "pk", "#sk", "sk"))
                            .expressionAttributeValues(Map.of(":pk", s("RUN#r1"), ":at", s("STEP#0002#Wait"))))
                    .items()
                    .stream()
                    .map(i -> i.get("sk").s())
                    .toList());
        }
        record("steps of r1 between, backwards", () -> dynamo.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("#pk = :pk AND #sk BETWEEN :a AND :b")
                        .expressionAttributeNames(Map.of("#pk", "pk", "#sk", "sk"))
                        .expressionAttributeValues(
                                Map.of(":pk", s("RUN#r1"), ":a", s("STEP#0001"), ":b", s("STEP#0003")))
                        .scanIndexForward(false))
                .items());
        for (int limit : new int[] {1, 2, 3, 10}) {
            record(
                    "RUNNING newest first, pages of " + limit,
                    () -> pages(QueryRequest.builder()
                            .tableName(TABLE)
                            .indexName(RunsTable.STATUS_INDEX)
                            .keyConditionExpression("#status = :status")
                            .expressionAttributeNames(
                                    Map.of("#status", "status", "#runId", "runId", "#createdAt", "createdAt"))
                            .expressionAttributeValues(Map.of(":status", s("RUNNING")))
                            .projectionExpression("#runId, #status, #createdAt")
                            .scanIndexForward(false)
                            .limit(limit)));
        }
        record(
                "RUNNING oldest first, filtered",
                () -> pages(QueryRequest.builder()
                        .tableName(TABLE)
                        .indexName(RunsTable.STATUS_INDEX)
                        .keyConditionExpression("#status = :status AND #createdAt > :after")
                        .filterExpression("#version >= :one")
                        .expressionAttributeNames(
                                Map.of("#status", "status", "#createdAt", "createdAt", "#version", "version"))
                        .expressionAttributeValues(
                                Map.of(":status", s("RUNNING"), ":after", s("2026-11-02"), ":one", n("1")))));
        record("get with a projection", () -> dynamo.getItem(b -> b.tableName(TABLE)
                        .key(Map.of("pk", s("RUN#r2"), "sk", s("RUN")))
                        .projectionExpression("#c, #l, absent")
                        .expressionAttributeNames(Map.of("#c", "counter", "#l", "log"))
                        .consistentRead(true))
                .item());
        record("a reserved word as a name", () -> dynamo.getItem(b -> b.tableName(TABLE)
                        .key(Map.of("pk", s("RUN#r2"), "sk", s("RUN")))
                        .projectionExpression("status"))
                .item());
        record("get a missing item", () -> dynamo.getItem(
                        b -> b.tableName(TABLE).key(Map.of("pk", s("RUN#nope"), "sk", s("RUN"))))
                .hasItem());
    }

    private String pages(QueryRequest.Builder request) {
        List<String> pages = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            QueryResponse page = dynamo.query(request.exclusiveStartKey(start).build());
            start = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
            pages.add(page.items().stream().map(DifferentialScript::canonical).toList() + " count=" + page.count()
                    + " scanned=" + page.scannedCount() + " next=" + (start == null ? "-" : canonical(start)));
        } while (start != null && pages.size() < 20);
        return String.join("\n  ", pages);
    }

    private void deletes() {
        Map<String, AttributeValue> key = Map.of("pk", s("RUN#r3"), "sk", s("RUN"));
        record(
                "delete on a condition that fails",
                () -> dynamo.deleteItem(b -> b.tableName(TABLE)
                        .key(key)
                        .conditionExpression("#s = :r")
                        .expressionAttributeNames(Map.of("#s", "status"))
                        .expressionAttributeValues(Map.of(":r", s("RUNNING")))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)));
        record("delete on a condition that holds", () -> dynamo.deleteItem(b -> b.tableName(TABLE)
                        .key(key)
                        .conditionExpression("#s = :done")
                        .expressionAttributeNames(Map.of("#s", "status"))
                        .expressionAttributeValues(Map.of(":done", s("SUCCEEDED")))
                        .returnValues(ReturnValue.ALL_OLD))
                .attributes());
        record("delete what is gone", () -> dynamo.deleteItem(
                        b -> b.tableName(TABLE).key(key).returnValues(ReturnValue.ALL_OLD))
                .attributes());
        record(
                "a query with a name no expression uses",
                () -> dynamo.query(b -> b.tableName(TABLE)
                        .keyConditionExpression("pk = :pk")
                        .expressionAttributeNames(Map.of("#unused", "x"))
                        .expressionAttributeValues(Map.of(":pk", s("RUN#r1")))));
        record(
                "delete what is gone, on attribute_exists",
                () -> dynamo.deleteItem(b -> b.tableName(TABLE).key(key).conditionExpression("attribute_exists(pk)")));
    }

    private void record(String label, Supplier<Object> operation) {
        String outcome;
        try {
            Object result = operation.get();
            outcome = result instanceof Map<?, ?> m
                    ? canonicalMap(m)
                    : result instanceof List<?> l ? list(l) : text(result);
        } catch (ConditionalCheckFailedException e) {
            outcome = "ConditionalCheckFailedException: " + e.awsErrorDetails().errorMessage()
                    + (e.hasItem() ? " item=" + canonical(e.item()) : "");
        } catch (DynamoDbException e) {
            outcome = e.awsErrorDetails().errorCode();
        }
        outcomes.add(label + " -> " + outcome);
    }

    private static String text(Object result) {
        return result instanceof software.amazon.awssdk.services.dynamodb.model.DynamoDbResponse
                ? "ok"
                : String.valueOf(result);
    }

    private static String list(List<?> list) {
        return list.stream()
                .map(e -> e instanceof Map<?, ?> m ? canonicalMap(m) : String.valueOf(e))
                .toList()
                .toString();
    }

    @SuppressWarnings("unchecked")
    private static String canonicalMap(Map<?, ?> m) {
        return m.isEmpty() ? "{}" : canonical((Map<String, AttributeValue>) m);
    }

    /** An item with its attributes sorted and sets as sorted lists: equal items, equal strings. */
    static String canonical(Map<String, AttributeValue> item) {
        if (item == null) {
            return "null";
        }
        Map<String, String> sorted = new TreeMap<>();
        item.forEach((k, v) -> sorted.put(k, value(v)));
        return sorted.toString();
    }

    private static String value(AttributeValue v) {
        return switch (v.type()) {
            case SS -> "SS" + v.ss().stream().sorted().toList();
            case NS -> "NS" + v.ns().stream().sorted().toList();
            case L -> "L" + v.l().stream().map(DifferentialScript::value).toList();
            case M -> "M" + canonical(v.m());
            default -> v.toString();
        };
    }

    private static Map<String, AttributeValue> run(String runId, String status, String createdAt, long version) {
        return Map.of(
                "pk",
                s("RUN#" + runId),
                "sk",
                s("RUN"),
                "runId",
                s(runId),
                "status",
                s(status),
                "createdAt",
                s(createdAt),
                "version",
                n(Long.toString(version)),
                "spec",
                s("{\"nodes\":1}"));
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }
}
