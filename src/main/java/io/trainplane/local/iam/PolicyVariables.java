package io.trainplane.local.iam;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Policy variables in a Resource or a condition value ({@code ${aws:PrincipalTag/kubernetes-namespace}}),
 * replaced with the request's value of that context key as IAM does at evaluation
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html). A key the
 * request does not carry, or carries with several values, leaves no value: "the policy variable
 * ... is effectively null" and the element holding it matches nothing, unless the variable gives a
 * default ({@code ${aws:PrincipalTag/team, 'none'}}) (same page, #policy-vars-no-value and
 * #policy-vars-default-values).
 */
final class PolicyVariables {
    private PolicyVariables() {}

    /** Whether {@code text} holds a {@code ${...}} (the special characters included). */
    static boolean present(String text) {
        return text.contains("${");
    }

    /** The problem with the variables of {@code text}, or null: a {@code ${} must close. */
    static String problemWith(String text) {
        for (int at = text.indexOf("${"); at >= 0; at = text.indexOf("${", at + 2)) {
            int end = text.indexOf('}', at + 2);
            if (end < 0 || end == at + 2) {
                return "has a '${' that names no variable and does not close with '}'";
            }
        }
        return null;
    }

    /**
     * {@code text} with each variable replaced by its value in {@code context}; empty when one has
     * none. For a wildcard match ({@code wildcards}) the special characters stay as they are and a
     * value's own {@code *}, {@code ?} and {@code $} are written the same way, so that the value
     * matches only itself; otherwise they are written as the characters.
     */
    static Optional<String> resolve(String text, Map<String, List<String>> context, boolean wildcards) {
        if (!present(text)) {
            return Optional.of(text);
        }
        StringBuilder out = new StringBuilder();
        int from = 0;
        for (int at = text.indexOf("${"); at >= 0; at = text.indexOf("${", from)) {
            int end = text.indexOf('}', at + 2);
            if (end < 0) {
                break;
            }
            out.append(text, from, at);
            String inside = text.substring(at + 2, end);
            from = end + 1;
            if (inside.length() == 1 && "*?$".contains(inside)) {
                out.append(wildcards ? "${" + inside + "}" : inside);
                continue;
            }
            String value = value(inside, context);
            if (value == null) {
                return Optional.empty();
            }
            out.append(wildcards ? literal(value) : value);
        }
        out.append(text.substring(from));
        return Optional.of(out.toString());
    }

    /** The value of {@code key} or {@code key, 'default'}: the request's one value, else the default, else null. */
    private static String value(String inside, Map<String, List<String>> context) {
        String key = inside;
        String fallback = null;
        int comma = inside.indexOf(", '");
        if (comma > 0 && inside.endsWith("'")) {
            key = inside.substring(0, comma).strip();
            fallback = inside.substring(comma + 3, inside.length() - 1);
        }
        for (var entry : context.entrySet()) {
            // "Context key names are not case-sensitive" (reference_policies_elements_condition.html).
            if (entry.getKey().equalsIgnoreCase(key) && entry.getValue().size() == 1) {
                return entry.getValue().get(0);
            }
        }
        return fallback;
    }

    private static String literal(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            out.append("*?$".indexOf(c) >= 0 ? "${" + c + "}" : String.valueOf(c));
        }
        return out.toString();
    }
}
