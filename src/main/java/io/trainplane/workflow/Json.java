package io.trainplane.workflow;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;

/** The one ObjectMapper of the workflow, and the few helpers steps need to read their input. */
public final class Json {
    public static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    public static ObjectNode object() {
        return MAPPER.createObjectNode();
    }

    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode read(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A required text field of a step's input; a missing one is a bug in the state machine. */
    public static String text(JsonNode input, String field) {
        JsonNode value = input.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("step input has no '" + field + "': " + input);
        }
        return value.asText();
    }
}
