package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.local.sim.CloudControlTypes.Rejection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Set;
import software.amazon.awssdk.services.cloudcontrol.model.HandlerErrorCode;

/**
 * The checks of a desired state against its CloudFormation resource schema, as Cloud Control
 * makes them before any handler runs; it reports them as {@code Model validation failed (#/Path:
 * reason)}. Each check returns null when the value passes.
 */
final class CloudControlSchemas {
    private CloudControlSchemas() {}

    static Rejection invalid(String path, String reason) {
        return new Rejection(
                HandlerErrorCode.INVALID_REQUEST, "Model validation failed (#" + path + ": " + reason + ")");
    }

    /** No property outside {@code allowed} ({@code "additionalProperties": false}). */
    static Rejection onlyKeys(JsonNode object, String path, Set<String> allowed) {
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                return invalid(path, "extraneous key [" + name + "] is not permitted");
            }
        }
        return null;
    }

    /** An optional string property that must be one of {@code values}. */
    static Rejection oneOf(JsonNode object, String path, String name, Set<String> values) {
        JsonNode value = object.get(name);
        if (value == null) {
            return null;
        }
        return value.isTextual() && values.contains(value.asText())
                ? null
                : invalid(path + "/" + name, value + " is not a valid enum value");
    }

    /** An optional integer property within [min, max]. */
    static Rejection integerIn(JsonNode object, String path, String name, int min, int max) {
        JsonNode value = object.get(name);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber()) {
            return invalid(path + "/" + name, "expected type: Integer, found: " + value.getNodeType());
        }
        return value.asLong() >= min && value.asLong() <= max
                ? null
                : invalid(path + "/" + name, value.asLong() + " is not between " + min + " and " + max);
    }

    /**
     * A {@code Tags} list as the schemas define it: [{Key 1-128, Value 0-256}], no key twice, no
     * {@code aws:} key, at most {@code max}.
     */
    static Rejection tags(JsonNode tags, String path, int max) {
        if (tags == null) {
            return null;
        }
        if (!tags.isArray()) {
            return invalid(path, "expected type: JSONArray, found: " + tags.getNodeType());
        }
        if (tags.size() > max) {
            return invalid(path, "expected maximum item count: " + max + ", found: " + tags.size());
        }
        Set<String> keys = new HashSet<>();
        for (int i = 0; i < tags.size(); i++) {
            JsonNode tag = tags.get(i);
            String at = path + "/" + i;
            Rejection shape = onlyKeys(tag, at, Set.of("Key", "Value"));
            if (shape != null) {
                return shape;
            }
            JsonNode key = tag.get("Key");
            JsonNode value = tag.get("Value");
            if (key == null || value == null) {
                return invalid(at, "required key [" + (key == null ? "Key" : "Value") + "] not found");
            }
            if (key.asText().isEmpty() || key.asText().length() > 128) {
                return invalid(at + "/Key", "expected length between 1 and 128");
            }
            if (value.asText().length() > 256) {
                return invalid(
                        at + "/Value",
                        "expected maxLength: 256, actual: " + value.asText().length());
            }
            if (key.asText().startsWith("aws:")) {
                return invalid(at + "/Key", "the aws: prefix is reserved for AWS");
            }
            if (!keys.add(key.asText())) {
                return invalid(path, "array items are not unique");
            }
        }
        return null;
    }

    /** The first rejection of {@code checks}, or null. */
    static Rejection first(Rejection... checks) {
        for (Rejection check : checks) {
            if (check != null) {
                return check;
            }
        }
        return null;
    }
}
