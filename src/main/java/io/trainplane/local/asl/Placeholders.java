package io.trainplane.local.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${Name}} placeholders, replaced textually as SAM's DefinitionSubstitutions does. An
 * unresolved placeholder is an error naming the state and field it is in, when that can be found.
 */
final class Placeholders {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");

    private Placeholders() {}

    static String substitute(String definition, Map<String, String> substitutions) {
        Matcher matcher = PLACEHOLDER.matcher(definition);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String value = substitutions.get(matcher.group(1));
            if (value == null) {
                throw unresolved(definition, matcher.group());
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        matcher.appendTail(out);
        return out.toString();
    }

    private static AslException unresolved(String definition, String placeholder) {
        String message = "unresolved placeholder " + placeholder + " (no such definition substitution)";
        try {
            JsonNode states = Json.strictMapper().readTree(definition).path("States");
            for (var state : states.properties()) {
                for (var field : state.getValue().properties()) {
                    if (Json.write(field.getValue()).contains(placeholder)) {
                        return new AslException(state.getKey(), field.getKey(), message);
                    }
                }
            }
        } catch (JsonProcessingException | RuntimeException e) {
            // The placeholder is outside a string, so the raw text is not JSON: report it without a location.
        }
        return new AslException(null, null, message);
    }
}
