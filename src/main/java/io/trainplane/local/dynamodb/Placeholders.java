package io.trainplane.local.dynamodb;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A request's ExpressionAttributeNames ({@code #name}) and ExpressionAttributeValues
 * ({@code :value}); a placeholder an expression uses but the request does not define is refused,
 * and so is one the request defines but none of its expressions uses, as DynamoDB refuses them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeNames.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeValues.html).
 * Parse every expression of the request with one instance, then call {@link #requireAllUsed}.
 */
final class Placeholders {
    private final Map<String, String> names;
    private final Map<String, AttributeValue> values;
    private final Set<String> used = new HashSet<>();

    Placeholders(Map<String, String> names, Map<String, AttributeValue> values) {
        this.names = names == null ? Map.of() : names;
        this.values = values == null ? Map.of() : values;
    }

    String name(String placeholder) {
        String name = names.get(placeholder);
        if (name == null) {
            throw Errors.validation("Invalid expression: An expression attribute name used in the document path is"
                    + " not defined; attribute name: " + placeholder);
        }
        used.add(placeholder);
        return name;
    }

    AttributeValue value(String placeholder) {
        AttributeValue value = values.get(placeholder);
        if (value == null) {
            throw Errors.validation("Invalid expression: An expression attribute value used in expression is not"
                    + " defined; attribute value: " + placeholder);
        }
        used.add(placeholder);
        return value;
    }

    /** Refuses names or values that no expression of the request used. */
    void requireAllUsed() {
        Set<String> unusedNames = new TreeSet<>(names.keySet());
        unusedNames.removeAll(used);
        if (!unusedNames.isEmpty()) {
            throw Errors.validation("Value provided in ExpressionAttributeNames unused in expressions: keys: {"
                    + String.join(", ", unusedNames) + "}");
        }
        Set<String> unusedValues = new TreeSet<>(values.keySet());
        unusedValues.removeAll(used);
        if (!unusedValues.isEmpty()) {
            throw Errors.validation("Value provided in ExpressionAttributeValues unused in expressions: keys: {"
                    + String.join(", ", unusedValues) + "}");
        }
    }
}
