package io.trainplane.local.iam;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.local.iam.ConditionTest.SetOperator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads an identity policy document into statements, refusing what IAM refuses
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html) and what the
 * simulation does not evaluate.
 */
final class PolicyDocuments {
    private static final Set<String> DOCUMENT_FIELDS = Set.of("Version", "Id", "Statement");
    private static final Set<String> STATEMENT_FIELDS =
            Set.of("Sid", "Effect", "Action", "NotAction", "Resource", "NotResource", "Condition");
    // "The prefix and the action name are case insensitive" (reference_policies_elements_action.html).
    private static final Pattern ACTION = Pattern.compile("\\*|[A-Za-z0-9*?-]+:[A-Za-z0-9*?]+");
    // "The Sid element supports ASCII uppercase letters (A-Z), lowercase letters (a-z), and numbers
    // (0-9)" — https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_sid.html
    private static final Pattern SID = Pattern.compile("[A-Za-z0-9]+");
    private static final Pattern OPERATOR = Pattern.compile("(?:(ForAllValues|ForAnyValue):)?([A-Za-z]+?)(IfExists)?");

    private PolicyDocuments() {}

    /** The statements of {@code document}, each with the id {@code <prefix>/<Sid or index>}. */
    static List<PolicyStatement> statements(String prefix, JsonNode document) {
        if (document == null || !document.isObject()) {
            throw invalid(prefix, "the policy document is not a JSON object");
        }
        unknownFields(prefix, document, DOCUMENT_FIELDS, "policy document");
        JsonNode version = document.get("Version");
        // "Version": "2012-10-17" or "2008-10-17" (reference_policies_elements_version.html).
        if (version != null && !Set.of("2012-10-17", "2008-10-17").contains(version.asText())) {
            throw invalid(prefix, "Version " + version + " is neither 2012-10-17 nor 2008-10-17");
        }
        JsonNode body = document.get("Statement");
        if (body == null || body.isArray() && body.isEmpty()) {
            throw invalid(prefix, "the policy has no Statement");
        }
        List<PolicyStatement> statements = new ArrayList<>();
        Set<String> sids = new HashSet<>();
        Set<String> ids = new HashSet<>();
        int index = 0;
        for (JsonNode statement : body.isArray() ? body : List.of(body)) {
            String sid =
                    statement.path("Sid").isTextual() ? statement.get("Sid").asText() : null;
            String id = prefix + "/" + (sid != null ? sid : Integer.toString(index));
            if (sid != null && !SID.matcher(sid).matches()) {
                throw invalid(id, "Sid '" + sid + "' may hold only letters and digits");
            }
            if (sid != null && !sids.add(sid)) {
                // "the Sid value must be unique within a JSON policy" (reference_policies_elements_sid.html)
                throw invalid(id, "Sid '" + sid + "' is used twice in the policy");
            }
            if (!ids.add(id)) {
                throw invalid(
                        id,
                        "a numeric Sid names the same statement id as the statement at that index; use a Sid with a letter");
            }
            statements.add(statement(id, statement));
            index++;
        }
        return List.copyOf(statements);
    }

    private static PolicyStatement statement(String id, JsonNode statement) {
        if (!statement.isObject()) {
            throw invalid(id, "a statement must be a JSON object");
        }
        if (statement.has("Principal") || statement.has("NotPrincipal")) {
            throw invalid(id, "an identity policy names no Principal (only resource policies and trust policies do)");
        }
        unknownFields(id, statement, STATEMENT_FIELDS, "statement");
        String effect = statement.path("Effect").asText();
        if (!effect.equals("Allow") && !effect.equals("Deny")) {
            throw invalid(id, "Effect must be Allow or Deny, not '" + effect + "'");
        }
        String actionField = exactlyOne(id, statement, "Action", "NotAction");
        List<String> actions = strings(id, statement.get(actionField), actionField);
        actions.stream().filter(PolicyVariables::present).findFirst().ifPresent(a -> {
            // Variables go in Resource and Condition only (reference_policies_variables.html#policy-vars-wheretouse).
            throw invalid(id, actionField + " '" + a + "' uses a policy variable; only Resource and Condition may");
        });
        actions.stream().filter(a -> !ACTION.matcher(a).matches()).findFirst().ifPresent(a -> {
            throw invalid(id, actionField + " '" + a + "' is not service:Action or *");
        });
        String resourceField = exactlyOne(id, statement, "Resource", "NotResource");
        List<String> resources = strings(id, statement.get(resourceField), resourceField);
        resources.stream()
                .filter(r -> !r.equals("*") && !r.startsWith("arn:"))
                .findFirst()
                .ifPresent(r -> {
                    throw invalid(id, resourceField + " '" + r + "' must be an ARN or *");
                });
        return new PolicyStatement(
                id,
                PolicyStatement.Effect.valueOf(effect),
                actions,
                actionField.equals("NotAction"),
                resources,
                resourceField.equals("NotResource"),
                conditions(id, statement.get("Condition")),
                statement);
    }

    private static List<ConditionTest> conditions(String id, JsonNode block) {
        if (block == null) {
            return List.of();
        }
        if (!block.isObject()) {
            throw invalid(id, "Condition must be a JSON object of operators");
        }
        List<ConditionTest> tests = new ArrayList<>();
        for (var op : block.properties()) {
            Matcher m = OPERATOR.matcher(op.getKey());
            ConditionOperator base = m.matches() ? operator(m.group(2)) : null;
            if (base == null) {
                throw invalid(
                        id,
                        "condition operator '" + op.getKey() + "' is not one the simulation evaluates"
                                + " (String*, Numeric*, Date*, Bool, Arn*, Null, with ForAllValues:/ForAnyValue: and IfExists)");
            }
            SetOperator set = m.group(1) == null
                    ? SetOperator.NONE
                    : m.group(1).equals("ForAllValues") ? SetOperator.FOR_ALL_VALUES : SetOperator.FOR_ANY_VALUE;
            boolean ifExists = m.group(3) != null;
            if (base == ConditionOperator.Null && (ifExists || set != SetOperator.NONE)) {
                throw invalid(id, "'" + op.getKey() + "': Null takes neither IfExists nor a set operator");
            }
            if (!op.getValue().isObject() || op.getValue().isEmpty()) {
                throw invalid(id, "'" + op.getKey() + "' must map condition keys to values");
            }
            for (var key : op.getValue().properties()) {
                List<String> values = strings(id, key.getValue(), op.getKey() + " " + key.getKey());
                for (String value : values) {
                    String problem = base.problemWith(value);
                    if (problem != null) {
                        throw invalid(id, op.getKey() + " " + key.getKey() + ": '" + value + "' " + problem);
                    }
                }
                tests.add(new ConditionTest(op.getKey(), set, base, ifExists, key.getKey(), values));
            }
        }
        return List.copyOf(tests);
    }

    private static ConditionOperator operator(String name) {
        try {
            return ConditionOperator.valueOf(name);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String exactlyOne(String id, JsonNode statement, String field, String negated) {
        if (statement.has(field) == statement.has(negated)) {
            throw invalid(id, "a statement needs exactly one of " + field + " and " + negated);
        }
        return statement.has(field) ? field : negated;
    }

    /** A string or a non-empty list of scalars, as text; each policy variable closed. */
    private static List<String> strings(String id, JsonNode value, String field) {
        List<String> out = new ArrayList<>();
        for (JsonNode item : value.isArray() ? value : List.of(value)) {
            if (!item.isValueNode() || item.isNull()) {
                throw invalid(id, field + " must be a string or a list of strings, not " + item);
            }
            String text = item.asText();
            String problem = PolicyVariables.problemWith(text);
            if (problem != null) {
                throw invalid(id, field + " '" + text + "' " + problem);
            }
            out.add(text);
        }
        if (out.isEmpty()) {
            throw invalid(id, field + " is empty");
        }
        return List.copyOf(out);
    }

    private static void unknownFields(String id, JsonNode node, Set<String> known, String what) {
        node.fieldNames().forEachRemaining(name -> {
            if (!known.contains(name)) {
                throw invalid(id, "'" + name + "' is not a field of a " + what + " (" + String.join(", ", known) + ")");
            }
        });
    }

    private static InvalidPolicyException invalid(String where, String message) {
        return new InvalidPolicyException(where + ": " + message);
    }
}
