package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Parses and checks a Choice state's Choices: top-level rules with Next, nested rules without. */
final class ChoiceParser {
    private static final Set<String> COMBINATORS = Set.of("And", "Or", "Not");

    private ChoiceParser() {}

    static List<ChoiceRule.Branch> choices(FieldReader state) {
        JsonNode array = state.get("Choices");
        if (array == null) {
            throw state.error("Choices", "required field is missing");
        }
        if (!array.isArray() || array.isEmpty()) {
            throw state.error("Choices", "must be a non-empty array of choice rules");
        }
        List<ChoiceRule.Branch> branches = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            FieldReader rule = new FieldReader(array.get(i), state.stateName(), "Choices[" + i + "].");
            ChoiceRule parsed = rule(rule, true);
            branches.add(new ChoiceRule.Branch(parsed, rule.requiredString("Next")));
        }
        return branches;
    }

    private static ChoiceRule rule(FieldReader rule, boolean topLevel) {
        Set<String> allowed = new HashSet<>(COMBINATORS);
        allowed.add("Variable");
        allowed.add("Comment");
        for (ComparisonOperator op : ComparisonOperator.values()) {
            allowed.add(op.field());
        }
        if (topLevel) {
            allowed.add("Next");
        }
        rule.allowOnly(allowed, topLevel ? "a choice rule" : "a nested choice rule (Next only at the top level)");
        rule.string("Comment");
        List<String> present = new ArrayList<>();
        for (String field : allowed) {
            if (rule.has(field) && !field.equals("Variable") && !field.equals("Next") && !field.equals("Comment")) {
                present.add(field);
            }
        }
        if (present.size() != 1) {
            throw rule.error(
                    null,
                    "a choice rule needs exactly one comparison operator or And/Or/Not, found "
                            + (present.isEmpty() ? "none" : present));
        }
        String operator = present.get(0);
        if (COMBINATORS.contains(operator)) {
            if (rule.has("Variable")) {
                throw rule.error("Variable", "not allowed beside " + operator);
            }
            return combinator(rule, operator);
        }
        JsonPathExpr variable = rule.path("Variable", false);
        ComparisonOperator op = ComparisonOperator.byField(operator).orElseThrow();
        JsonNode operand = rule.get(operator);
        JsonPathExpr operandPath = null;
        switch (op.operand()) {
            case STRING -> requireType(rule, operator, operand.isTextual(), "a string");
            case NUMBER -> requireType(rule, operator, operand.isNumber(), "a number");
            case BOOLEAN -> requireType(rule, operator, operand.isBoolean(), "a boolean");
            case PATH -> operandPath = rule.path(operator, false);
        }
        return new ChoiceRule.Comparison(variable, op, operand, operandPath);
    }

    private static ChoiceRule combinator(FieldReader rule, String operator) {
        JsonNode value = rule.get(operator);
        if (operator.equals("Not")) {
            return new ChoiceRule.Not(rule(nested(rule, value, "Not."), false));
        }
        if (!value.isArray() || value.isEmpty()) {
            throw rule.error(operator, "must be a non-empty array of choice rules");
        }
        List<ChoiceRule> rules = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            rules.add(rule(nested(rule, value.get(i), operator + "[" + i + "]."), false));
        }
        return operator.equals("And") ? new ChoiceRule.And(rules) : new ChoiceRule.Or(rules);
    }

    private static FieldReader nested(FieldReader parent, JsonNode value, String suffix) {
        return new FieldReader(value, parent.stateName(), parent.prefix() + suffix);
    }

    private static void requireType(FieldReader rule, String field, boolean ok, String type) {
        if (!ok) {
            throw rule.error(field, "must be " + type);
        }
    }
}
