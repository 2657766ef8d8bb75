package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The template's parameters with their values: each Default, replaced by the given overrides,
 * checked as CloudFormation checks them at deployment
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/parameters-section-structure.html):
 * a value for every parameter, AllowedValues, AllowedPattern (the whole value), MinLength,
 * MaxLength, MinValue, MaxValue, Number types numeric. List types ({@code CommaDelimitedList},
 * {@code List<...>}) resolve to lists of strings.
 */
final class StackParameters {
    private static final Set<String> SCALAR_TYPES = Set.of("String", "Number");
    private final Map<String, JsonNode> values;

    private StackParameters(Map<String, JsonNode> values) {
        this.values = values;
    }

    /** The value of parameter {@code name}: a text node, or an array for list types; null if there is no such parameter. */
    JsonNode get(String name) {
        return values.get(name);
    }

    Map<String, JsonNode> all() {
        return values;
    }

    static StackParameters of(JsonNode section, Map<String, String> overrides) {
        for (String name : overrides.keySet()) {
            if (!section.has(name)) {
                List<String> known = new ArrayList<>();
                section.fieldNames().forEachRemaining(known::add);
                throw new TemplateException(
                        "the template has no parameter " + name + " (its parameters: " + known + ")");
            }
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        for (var parameter : section.properties()) {
            String name = parameter.getKey();
            JsonNode spec = parameter.getValue();
            String value = overrides.containsKey(name)
                    ? overrides.get(name)
                    : spec.has("Default") ? spec.get("Default").asText() : null;
            if (value == null) {
                throw new TemplateException(
                        "parameter " + name + " has no Default: give it a value (--parameter " + name + "=...)");
            }
            values.put(name, checked(name, spec, value));
        }
        return new StackParameters(values);
    }

    private static JsonNode checked(String name, JsonNode spec, String value) {
        String type = spec.path("Type").asText();
        boolean list = type.equals("CommaDelimitedList") || type.startsWith("List<");
        if (!list && !SCALAR_TYPES.contains(type)) {
            throw new TemplateException("parameter " + name + ": type " + type + " is not simulated (String, Number, "
                    + "CommaDelimitedList and List<...> are)");
        }
        List<String> items = list ? List.of(value.split(",", -1)) : List.of(value);
        boolean numeric = type.equals("Number") || type.equals("List<Number>");
        for (String item : items) {
            if (numeric && number(item) == null) {
                throw problem(name, value, "is not a number");
            }
            if (spec.has("AllowedPattern")
                    && !item.matches(spec.get("AllowedPattern").asText())) {
                throw problem(
                        name,
                        value,
                        "does not match its AllowedPattern "
                                + spec.get("AllowedPattern").asText());
            }
        }
        if (spec.has("AllowedValues")) {
            boolean allowed = false;
            for (JsonNode option : spec.get("AllowedValues")) {
                allowed |= numeric
                        ? number(option.asText()) != null
                                && number(option.asText()).compareTo(number(value)) == 0
                        : option.asText().equals(value);
            }
            if (!allowed) {
                throw problem(name, value, "is not one of its AllowedValues " + spec.get("AllowedValues"));
            }
        }
        if (spec.has("MinLength") && value.length() < spec.get("MinLength").asInt()
                || spec.has("MaxLength")
                        && value.length() > spec.get("MaxLength").asInt()) {
            throw problem(name, value, "is not between MinLength and MaxLength");
        }
        if (numeric
                && !list
                && (spec.has("MinValue")
                                && number(value)
                                                .compareTo(number(
                                                        spec.get("MinValue").asText()))
                                        < 0
                        || spec.has("MaxValue")
                                && number(value)
                                                .compareTo(number(
                                                        spec.get("MaxValue").asText()))
                                        > 0)) {
            throw problem(name, value, "is not between MinValue and MaxValue");
        }
        if (!list) {
            return Json.NODES.textNode(value);
        }
        var array = Json.NODES.arrayNode();
        items.forEach(array::add);
        return array;
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static TemplateException problem(String name, String value, String what) {
        return new TemplateException("parameter " + name + ": '" + value + "' " + what);
    }
}
