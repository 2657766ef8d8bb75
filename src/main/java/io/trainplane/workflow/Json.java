package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.json.JsonTrees;

/**
 * The few JSON helpers steps need to read their input and build their output: trees only, read
 * and written by {@link JsonTrees}, so that no step builds an ObjectMapper on its way.
 */
public final class Json {
    private Json() {}

    public static ObjectNode object() {
        return JsonTrees.NODES.objectNode();
    }

    public static ArrayNode array() {
        return JsonTrees.NODES.arrayNode();
    }

    /** The metrics {@code values} as an object of numbers. */
    public static ObjectNode numbers(java.util.Map<String, Double> values) {
        ObjectNode node = object();
        values.forEach(node::put);
        return node;
    }

    public static String write(JsonNode value) {
        return JsonTrees.write(value);
    }

    public static JsonNode read(String json) {
        return JsonTrees.read(json);
    }

    /**
     * An ObjectMapper, for the code that maps objects (the CLI, local mode, the benchmarks), built
     * on first use: the Lambda functions never ask for it.
     */
    public static ObjectMapper mapper() {
        return Mapper.INSTANCE;
    }

    /** A required text field of a step's input; a missing one is a bug in the state machine. */
    public static String text(JsonNode input, String field) {
        JsonNode value = input.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("step input has no '" + field + "': " + input);
        }
        return value.asText();
    }

    private static final class Mapper {
        static final ObjectMapper INSTANCE = new ObjectMapper();
    }
}
