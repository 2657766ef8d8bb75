package io.trainplane.local.dynamodb;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A projection expression: the comma-separated top-level attributes to return
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ProjectionExpressions.html).
 * Attributes the item lacks are left out. Nested paths are refused with
 * {@link UnsupportedOperationException}: the project projects top-level attributes only.
 */
record Projection(List<String> attributes) {

    /** The projection of {@code expression}; null or blank keeps every attribute. */
    static Projection parse(String expression, Placeholders p) {
        if (expression == null || expression.isBlank()) {
            return new Projection(null);
        }
        Tokens tokens = new Tokens(expression);
        List<String> attributes = new ArrayList<>();
        do {
            Path path = Path.parse(tokens, p);
            if (!path.isTopLevel()) {
                throw new UnsupportedOperationException("a ProjectionExpression with a nested path (" + path + ")");
            }
            attributes.add(path.top());
        } while (tokens.takeSymbol(","));
        tokens.expectEnd();
        return new Projection(List.copyOf(attributes));
    }

    Map<String, AttributeValue> apply(Map<String, AttributeValue> item) {
        if (attributes == null) {
            return item;
        }
        Map<String, AttributeValue> projected = new LinkedHashMap<>();
        attributes.forEach(a -> {
            if (item.containsKey(a)) {
                projected.put(a, item.get(a));
            }
        });
        return projected;
    }
}
