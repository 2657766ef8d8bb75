package io.trainplane.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.BillingModeSummary;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.IndexStatus;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * What CreateTable declared: the key schema, the attribute types, the global secondary indexes
 * with their projections, the billing mode; kept as JSON in the store.
 *
 * @param rangeKey null for a table (or index) with a partition key only
 */
record TableSchema(
        String name,
        String hashKey,
        String rangeKey,
        Map<String, String> attributeTypes,
        List<Index> indexes,
        String billingMode,
        Instant created) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A global secondary index: its keys and projection (ALL, KEYS_ONLY or INCLUDE its attributes). */
    record Index(String name, String hashKey, String rangeKey, String projection, List<String> included) {}

    Index index(String indexName) {
        return indexes.stream()
                .filter(i -> i.name().equals(indexName))
                .findFirst()
                .orElseThrow(() -> Errors.validation("The table does not have the specified index: " + indexName));
    }

    TableDescription describe(long itemCount) {
        List<AttributeDefinition> definitions = new ArrayList<>();
        attributeTypes.forEach((n, t) -> definitions.add(
                AttributeDefinition.builder().attributeName(n).attributeType(t).build()));
        TableDescription.Builder table = TableDescription.builder()
                .tableName(name)
                .tableStatus(TableStatus.ACTIVE)
                .keySchema(keys(hashKey, rangeKey))
                .attributeDefinitions(definitions)
                .creationDateTime(created)
                .itemCount(itemCount)
                .tableSizeBytes(0L)
                .tableArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + name)
                .billingModeSummary(
                        BillingModeSummary.builder().billingMode(billingMode).build());
        if (!indexes.isEmpty()) {
            table.globalSecondaryIndexes(indexes.stream()
                    .map(i -> GlobalSecondaryIndexDescription.builder()
                            .indexName(i.name())
                            .keySchema(keys(i.hashKey(), i.rangeKey()))
                            .projection(software.amazon.awssdk.services.dynamodb.model.Projection.builder()
                                    .projectionType(i.projection())
                                    .nonKeyAttributes(i.included().isEmpty() ? null : i.included())
                                    .build())
                            .indexStatus(IndexStatus.ACTIVE)
                            .indexArn("arn:aws:dynamodb:us-east-1:000000000000:table/" + name + "/index/" + i.name())
                            .itemCount(itemCount)
                            .build())
                    .toList());
        }
        return table.build();
    }

    static List<KeySchemaElement> keys(String hash, String range) {
        List<KeySchemaElement> keys = new ArrayList<>();
        keys.add(KeySchemaElement.builder()
                .attributeName(hash)
                .keyType(KeyType.HASH)
                .build());
        if (range != null) {
            keys.add(KeySchemaElement.builder()
                    .attributeName(range)
                    .keyType(KeyType.RANGE)
                    .build());
        }
        return keys;
    }

    static String defaultBillingMode(BillingMode mode) {
        return mode == null || mode == BillingMode.UNKNOWN_TO_SDK_VERSION ? "PROVISIONED" : mode.toString();
    }

    String toJson() {
        ObjectNode root = JSON.createObjectNode();
        root.put("name", name).put("hashKey", hashKey).put("rangeKey", rangeKey);
        ObjectNode types = root.putObject("attributeTypes");
        attributeTypes.forEach(types::put);
        var array = root.putArray("indexes");
        for (Index i : indexes) {
            ObjectNode n = array.addObject()
                    .put("name", i.name())
                    .put("hashKey", i.hashKey())
                    .put("rangeKey", i.rangeKey())
                    .put("projection", i.projection());
            i.included().forEach(n.putArray("included")::add);
        }
        root.put("billingMode", billingMode).put("created", created.toString());
        return root.toString();
    }

    static TableSchema fromJson(String json) {
        try {
            JsonNode root = JSON.readTree(json);
            Map<String, String> types = new LinkedHashMap<>();
            root.get("attributeTypes")
                    .properties()
                    .forEach(e -> types.put(e.getKey(), e.getValue().asText()));
            List<Index> indexes = new ArrayList<>();
            for (JsonNode n : root.get("indexes")) {
                List<String> included = new ArrayList<>();
                n.path("included").forEach(x -> included.add(x.asText()));
                indexes.add(new Index(
                        n.get("name").asText(),
                        n.get("hashKey").asText(),
                        text(n, "rangeKey"),
                        n.get("projection").asText(),
                        List.copyOf(included)));
            }
            return new TableSchema(
                    root.get("name").asText(),
                    root.get("hashKey").asText(),
                    text(root, "rangeKey"),
                    types,
                    List.copyOf(indexes),
                    root.get("billingMode").asText(),
                    Instant.parse(root.get("created").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException("a stored table description is not JSON: " + json, e);
        }
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
