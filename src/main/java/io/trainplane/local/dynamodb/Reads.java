package io.trainplane.local.dynamodb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.Select;

/**
 * Query and Scan, one page at a time. A page evaluates items in key order after
 * ExclusiveStartKey, at most Limit of them; FilterExpression then drops some (so a page may hold
 * fewer than Limit items, and Count differs from ScannedCount); ProjectionExpression picks the
 * attributes returned
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Pagination.html: a page
 * also ends once it has read 1 MB,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.FilterExpression.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.Limit.html). A Query
 * returns items by sort key, ascending unless ScanIndexForward is false
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html);
 * items that tie on an index's sort key come in table key order. LastEvaluatedKey (the table's keys, and
 * the index's on an index) is returned when items remain after the page, as moto_server does.
 */
final class Reads {
    private final TableStore store;

    Reads(TableStore store) {
        this.store = store;
    }

    QueryResponse query(TableSchema t, QueryRequest request) {
        if (request.hasKeyConditions() || request.hasQueryFilter() || request.hasAttributesToGet()) {
            throw new UnsupportedOperationException(
                    "Query with legacy parameters (KeyConditions, QueryFilter, AttributesToGet)");
        }
        requireSelect(request.select(), "Query");
        Placeholders p = new Placeholders(request.expressionAttributeNames(), request.expressionAttributeValues());
        TableSchema.Index index = request.indexName() == null ? null : t.index(request.indexName());
        if (index != null && Boolean.TRUE.equals(request.consistentRead())) {
            throw Errors.validation("Consistent reads are not supported on global secondary indexes");
        }
        String hash = index == null ? t.hashKey() : index.hashKey();
        String range = index == null ? t.rangeKey() : index.rangeKey();
        KeyCondition keys = KeyCondition.parse(request.keyConditionExpression(), p, hash, range);
        Condition filter = Condition.parse(request.filterExpression(), p);
        Projection projection = Projection.parse(request.projectionExpression(), p);
        p.requireAllUsed();

        List<Map<String, AttributeValue>> items = new ArrayList<>(
                index == null
                        ? store.partition(t, keys.partition())
                        : store.indexPartition(t, index.name(), keys.partition()));
        items.removeIf(item -> !keys.matches(item, hash, range));
        Comparator<Map<String, AttributeValue>> order = tableOrder(t);
        if (range != null) {
            order = Comparator.<Map<String, AttributeValue>, AttributeValue>comparing(
                            item -> item.get(range), AttributeValues::compareKeys)
                    .thenComparing(order);
        }
        if (Boolean.FALSE.equals(request.scanIndexForward())) {
            order = order.reversed();
        }
        Page page = page(items, order, request.exclusiveStartKey(), request.limit(), keyNames(t, index));
        QueryResponse.Builder response = QueryResponse.builder().scannedCount(page.evaluated.size());
        List<Map<String, AttributeValue>> out = returned(page.evaluated, filter, projection, t, index);
        response.items(out).count(out.size());
        if (page.lastKey != null) {
            response.lastEvaluatedKey(page.lastKey);
        }
        return response.build();
    }

    ScanResponse scan(TableSchema t, ScanRequest request) {
        if (request.indexName() != null
                || request.segment() != null
                || request.hasScanFilter()
                || request.hasAttributesToGet()) {
            throw new UnsupportedOperationException(
                    "Scan of an index, parallel Scan or Scan with legacy parameters (ScanFilter, AttributesToGet)");
        }
        requireSelect(request.select(), "Scan");
        Placeholders p = new Placeholders(request.expressionAttributeNames(), request.expressionAttributeValues());
        Condition filter = Condition.parse(request.filterExpression(), p);
        Projection projection = Projection.parse(request.projectionExpression(), p);
        p.requireAllUsed();
        Page page = page(store.all(t), tableOrder(t), request.exclusiveStartKey(), request.limit(), keyNames(t, null));
        List<Map<String, AttributeValue>> out = returned(page.evaluated, filter, projection, t, null);
        ScanResponse.Builder response =
                ScanResponse.builder().items(out).count(out.size()).scannedCount(page.evaluated.size());
        if (page.lastKey != null) {
            response.lastEvaluatedKey(page.lastKey);
        }
        return response.build();
    }

    private static void requireSelect(Select select, String operation) {
        if (select != null && select != Select.ALL_ATTRIBUTES && select != Select.ALL_PROJECTED_ATTRIBUTES) {
            throw new UnsupportedOperationException(operation + " with Select " + select);
        }
    }

    private record Page(List<Map<String, AttributeValue>> evaluated, Map<String, AttributeValue> lastKey) {}

    private static Page page(
            List<Map<String, AttributeValue>> items,
            Comparator<Map<String, AttributeValue>> order,
            Map<String, AttributeValue> startKey,
            Integer limit,
            List<String> keyNames) {
        items.sort(order);
        int from = 0;
        if (startKey != null && !startKey.isEmpty()) {
            while (from < items.size() && order.compare(items.get(from), startKey) <= 0) {
                from++;
            }
        }
        int to = limit == null ? items.size() : Math.min(items.size(), from + limit);
        long read = 0;
        for (int i = from; i < to; i++) {
            read += ItemSize.of(items.get(i));
            if (read >= ItemSize.MAX_PAGE) {
                to = i + 1; // the page ends at 1 MB read
                break;
            }
        }
        List<Map<String, AttributeValue>> evaluated = items.subList(from, to);
        Map<String, AttributeValue> lastKey = null;
        if (to < items.size() && !evaluated.isEmpty()) {
            Map<String, AttributeValue> last = evaluated.get(evaluated.size() - 1);
            lastKey = new LinkedHashMap<>();
            for (String name : keyNames) {
                lastKey.put(name, last.get(name));
            }
        }
        return new Page(evaluated, lastKey);
    }

    /** Table key order: by the key columns' text, which is how the store lists a table. */
    private static Comparator<Map<String, AttributeValue>> tableOrder(TableSchema t) {
        Comparator<Map<String, AttributeValue>> order =
                Comparator.comparing(item -> AttributeValues.keyText(item.get(t.hashKey())));
        if (t.rangeKey() != null) {
            order = order.thenComparing(item -> AttributeValues.keyText(item.get(t.rangeKey())));
        }
        return order;
    }

    private static List<String> keyNames(TableSchema t, TableSchema.Index index) {
        List<String> names = new ArrayList<>();
        names.add(t.hashKey());
        if (t.rangeKey() != null) {
            names.add(t.rangeKey());
        }
        if (index != null) {
            names.add(index.hashKey());
            if (index.rangeKey() != null) {
                names.add(index.rangeKey());
            }
        }
        return names.stream().distinct().toList();
    }

    /** The evaluated items that pass the filter, with the index's projection and then the request's. */
    private static List<Map<String, AttributeValue>> returned(
            List<Map<String, AttributeValue>> evaluated,
            Condition filter,
            Projection projection,
            TableSchema t,
            TableSchema.Index index) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        for (Map<String, AttributeValue> item : evaluated) {
            if (filter.test(item)) {
                out.add(projection.apply(indexProjection(item, t, index)));
            }
        }
        return out;
    }

    private static Map<String, AttributeValue> indexProjection(
            Map<String, AttributeValue> item, TableSchema t, TableSchema.Index index) {
        if (index == null || index.projection().equals("ALL")) {
            return item;
        }
        List<String> kept = new ArrayList<>(keyNames(t, index));
        kept.addAll(index.included());
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        kept.forEach(n -> {
            if (item.containsKey(n)) {
                out.put(n, item.get(n));
            }
        });
        return out;
    }
}
