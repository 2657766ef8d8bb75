package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.util.List;
import java.util.Optional;

/**
 * A Choice rule: a comparison of a Variable, or And / Or / Not of nested rules. And and Or stop at
 * the first rule that decides them. A Variable (or a *Path operand) that names nothing is a
 * States.Runtime error, except for IsPresent, which tests exactly that.
 */
sealed interface ChoiceRule {
    boolean test(JsonNode input);

    /** A top-level rule of the Choices array with the state it leads to. */
    record Branch(ChoiceRule rule, String next) {}

    /** @param operand the literal operand, or the path for *Path operators */
    record Comparison(JsonPathExpr variable, ComparisonOperator operator, JsonNode operand, JsonPathExpr operandPath)
            implements ChoiceRule {
        @Override
        public boolean test(JsonNode input) {
            Optional<JsonNode> value = variable.read(input);
            if (operator == ComparisonOperator.IS_PRESENT) {
                return value.isPresent() == operand.booleanValue();
            }
            JsonNode present = value.orElseThrow(() -> invalidPath(variable, input));
            JsonNode resolved = operandPath == null
                    ? operand
                    : operandPath.read(input).orElseThrow(() -> invalidPath(operandPath, input));
            return operator.test(present, resolved);
        }

        private static StatesError invalidPath(JsonPathExpr path, JsonNode input) {
            return StatesError.runtime("Invalid path '" + path.text()
                    + "': The choice state's condition path references an invalid value. (input: " + Json.write(input)
                    + ")");
        }
    }

    record And(List<ChoiceRule> rules) implements ChoiceRule {
        public And {
            rules = List.copyOf(rules);
        }

        @Override
        public boolean test(JsonNode input) {
            return rules.stream().allMatch(rule -> rule.test(input));
        }
    }

    record Or(List<ChoiceRule> rules) implements ChoiceRule {
        public Or {
            rules = List.copyOf(rules);
        }

        @Override
        public boolean test(JsonNode input) {
            return rules.stream().anyMatch(rule -> rule.test(input));
        }
    }

    record Not(ChoiceRule rule) implements ChoiceRule {
        @Override
        public boolean test(JsonNode input) {
            return !rule.test(input);
        }
    }
}
