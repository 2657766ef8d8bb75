package io.trainplane.local.dynamodb;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A request's ExpressionAttributeNames ({@code #name}) and ExpressionAttributeValues
 * ({@code :value}); a placeholder an expression uses but the request does not define is refused
 * as DynamoDB refuses it
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeNames.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeValues.html).
 */
record Placeholders(Map<String, String> names, Map<String, AttributeValue> values) {
    static final Placeholders NONE = new Placeholders(Map.of(), Map.of());

    Placeholders {
        names = names == null ? Map.of() : names;
        values = values == null ? Map.of() : values;
    }

    String name(String placeholder) {
        String name = names.get(placeholder);
        if (name == null) {
            throw Errors.validation("Invalid expression: An expression attribute name used in the document path is"
                    + " not defined; attribute name: " + placeholder);
        }
        return name;
    }

    AttributeValue value(String placeholder) {
        AttributeValue value = values.get(placeholder);
        if (value == null) {
            throw Errors.validation("Invalid expression: An expression attribute value used in expression is not"
                    + " defined; attribute value: " + placeholder);
        }
        return value;
    }
}
