package io.trainplane.local.dynamodb;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An operand of a condition: a document path, a {@code :value}, or {@code size(path)}
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Functions).
 * Evaluates to null where the item has no such attribute.
 */
@FunctionalInterface
interface Operand {
    AttributeValue eval(Map<String, AttributeValue> item);

    static Operand parse(Tokens tokens, Placeholders p) {
        if (tokens.peek().startsWith(":")) {
            AttributeValue value = p.value(tokens.take());
            return item -> value;
        }
        if (tokens.peek().equals("size") && tokens.peek(1).equals("(")) {
            tokens.take();
            tokens.expect("(");
            Path path = Path.parse(tokens, p);
            tokens.expect(")");
            return item -> Functions.size(path.get(item));
        }
        Path path = Path.parse(tokens, p);
        return path::get;
    }
}
