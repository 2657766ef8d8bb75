package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * A ResultPath: where a state's result goes in its raw input. {@code $} replaces the input; a path
 * of fields merges the result in, creating intermediate objects; JSON null discards the result and
 * passes the raw input on. Array indexes are refused at load time.
 *
 * @param fields the field names below {@code $}, or null for ResultPath null
 */
record ResultPath(String text, List<String> fields) {
    static final ResultPath ROOT = new ResultPath("$", List.of());
    static final ResultPath DISCARD = new ResultPath(null, null);

    ResultPath {
        fields = fields == null ? null : List.copyOf(fields);
    }

    /** @throws IllegalArgumentException when the text is not a reference path of field names */
    static ResultPath parse(String text) {
        JsonPathExpr path = JsonPathExpr.parse(text, false);
        List<String> names = new ArrayList<>();
        for (JsonPathExpr.Segment segment : path.segments()) {
            if (!(segment instanceof JsonPathExpr.Field field)) {
                throw new IllegalArgumentException(
                        "a ResultPath with an array index is not supported by the local executor: '" + text + "'");
            }
            names.add(field.name());
        }
        return new ResultPath(text, names);
    }

    /**
     * Combines the raw input with the result. Fails with States.ResultPathMatchFailure when the
     * input (or a value on the way) is not an object the result can be placed in.
     */
    JsonNode apply(JsonNode rawInput, JsonNode result) {
        if (fields == null) {
            return rawInput;
        }
        if (fields.isEmpty()) {
            return result;
        }
        if (!rawInput.isObject()) {
            throw mismatch(rawInput);
        }
        ObjectNode output = ((ObjectNode) rawInput).deepCopy();
        ObjectNode current = output;
        for (String name : fields.subList(0, fields.size() - 1)) {
            JsonNode child = current.get(name);
            if (child == null) {
                current = current.putObject(name);
            } else if (child.isObject()) {
                current = (ObjectNode) child;
            } else {
                throw mismatch(rawInput);
            }
        }
        current.set(fields.get(fields.size() - 1), result);
        return output;
    }

    private StatesError mismatch(JsonNode rawInput) {
        return new StatesError(
                ErrorNames.RESULT_PATH_MATCH_FAILURE,
                "Unable to apply ResultPath '" + text + "' to input '" + Json.write(rawInput) + "'");
    }
}
