package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Strict access to the fields of one JSON object of a definition (the top level, a state, a
 * retrier, a choice rule): every type and range is checked, every unknown field refused, and every
 * problem reported as an {@link AslException} naming the state and the field.
 */
final class FieldReader {
    private final ObjectNode node;
    private final String stateName;
    private final String prefix;

    /**
     * @param stateName the state the object belongs to, null at the top level
     * @param prefix how to name fields of a nested object, e.g. "Retry[0]."; empty for the state itself
     */
    FieldReader(JsonNode node, String stateName, String prefix) {
        if (!node.isObject()) {
            throw new AslException(
                    stateName,
                    prefix.isEmpty() ? null : prefix.substring(0, prefix.length() - 1),
                    "must be a JSON object");
        }
        this.node = (ObjectNode) node;
        this.stateName = stateName;
        this.prefix = prefix;
    }

    String stateName() {
        return stateName;
    }

    /** How this object's fields are named in messages, e.g. "Retry[0]."; empty for a state. */
    String prefix() {
        return prefix;
    }

    /** Refuses any field not in {@code allowed}, naming it and what is supported. */
    void allowOnly(Set<String> allowed, String what) {
        for (var property : node.properties()) {
            String name = property.getKey();
            if (!allowed.contains(name)) {
                throw error(
                        name,
                        "field not supported by the local executor in " + what + " (supported: "
                                + String.join(", ", new TreeSet<>(allowed)) + ")");
            }
        }
    }

    boolean has(String field) {
        return node.has(field);
    }

    boolean isNull(String field) {
        return node.has(field) && node.get(field).isNull();
    }

    JsonNode get(String field) {
        return node.get(field);
    }

    AslException error(String field, String message) {
        return new AslException(stateName, field == null ? null : prefix + field, message);
    }

    String requiredString(String field) {
        if (!node.has(field)) {
            throw error(field, "required field is missing");
        }
        return string(field);
    }

    /** The string value, or null when the field is absent. */
    String string(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            return null;
        }
        if (!value.isTextual()) {
            throw error(field, "must be a string, got " + Json.typeName(value));
        }
        return value.textValue();
    }

    /** An integer in [min, max], or null when the field is absent. */
    Integer integer(String field, long min, long max) {
        JsonNode value = node.get(field);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber()
                || !value.canConvertToLong()
                || value.longValue() < min
                || value.longValue() > max) {
            throw error(field, "must be an integer from " + min + " to " + max + ", got " + value);
        }
        return (int) value.longValue();
    }

    /** A number of at least min, or the default when the field is absent. */
    double number(String field, double min, double defaultValue) {
        JsonNode value = node.get(field);
        if (value == null) {
            return defaultValue;
        }
        if (!value.isNumber() || value.doubleValue() < min) {
            throw error(field, "must be a number of at least " + min + ", got " + value);
        }
        return value.doubleValue();
    }

    boolean bool(String field) {
        JsonNode value = node.get(field);
        if (value == null || !value.isBoolean()) {
            throw error(field, "must be a boolean");
        }
        return value.booleanValue();
    }

    /** A non-empty array of strings. */
    List<String> stringArray(String field) {
        JsonNode value = node.get(field);
        if (value == null) {
            throw error(field, "required field is missing");
        }
        if (!value.isArray() || value.isEmpty()) {
            throw error(field, "must be a non-empty array of strings");
        }
        List<String> out = new ArrayList<>();
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                throw error(field, "must be a non-empty array of strings");
            }
            out.add(item.textValue());
        }
        return out;
    }

    /** A path; {@code allowContext} permits {@code $$}. */
    JsonPathExpr path(String field, boolean allowContext) {
        String text = requiredString(field);
        try {
            return JsonPathExpr.parse(text, allowContext);
        } catch (IllegalArgumentException e) {
            throw error(field, e.getMessage());
        }
    }

    /** InputPath or OutputPath: absent is {@code $}, null is the empty object. */
    InputOutputPath inputOutputPath(String field) {
        if (!node.has(field)) {
            return InputOutputPath.root(field);
        }
        if (isNull(field)) {
            return InputOutputPath.discard(field);
        }
        return new InputOutputPath(field, path(field, false));
    }

    /** ResultPath: absent is {@code $}, null discards the result. */
    ResultPath resultPath(String field) {
        if (!node.has(field)) {
            return ResultPath.ROOT;
        }
        if (isNull(field)) {
            return ResultPath.DISCARD;
        }
        try {
            return ResultPath.parse(requiredString(field));
        } catch (IllegalArgumentException e) {
            throw error(field, e.getMessage());
        }
    }

    /** A payload template, or null when the field is absent. */
    PayloadTemplate template(String field) {
        JsonNode value = node.get(field);
        return value == null ? null : PayloadTemplate.parse(value, stateName, prefix + field);
    }
}
