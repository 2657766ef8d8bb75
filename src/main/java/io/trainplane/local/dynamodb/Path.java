package io.trainplane.local.dynamodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A document path: a top-level attribute, then map keys ({@code .name}) and list indexes
 * ({@code [n]}); each name written as itself or as a {@code #placeholder} of
 * ExpressionAttributeNames
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.Attributes.html,
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.ExpressionAttributeNames.html).
 * Each segment is a {@link String} (a name) or an {@link Integer} (an index).
 */
record Path(List<Object> segments) {

    static Path parse(Tokens tokens, Placeholders placeholders) {
        List<Object> segments = new ArrayList<>();
        segments.add(name(tokens, placeholders));
        while (true) {
            if (tokens.takeSymbol(".")) {
                segments.add(name(tokens, placeholders));
            } else if (tokens.takeSymbol("[")) {
                String index = tokens.take();
                if (!index.chars().allMatch(Character::isDigit)) {
                    throw tokens.syntax(index);
                }
                segments.add(Integer.parseInt(index));
                tokens.expect("]");
            } else {
                return new Path(List.copyOf(segments));
            }
        }
    }

    private static String name(Tokens tokens, Placeholders placeholders) {
        String token = tokens.take();
        if (token.startsWith("#")) {
            return placeholders.name(token);
        }
        if (token.startsWith(":") || !(Character.isLetter(token.charAt(0)) || token.charAt(0) == '_')) {
            throw tokens.syntax(token);
        }
        if (ReservedWords.isReserved(token)) {
            throw Errors.validation(
                    "Invalid expression: Attribute name is a reserved keyword; reserved keyword: " + token);
        }
        return token;
    }

    /** The top-level attribute the path starts at. */
    String top() {
        return (String) segments.get(0);
    }

    boolean isTopLevel() {
        return segments.size() == 1;
    }

    /** The value at the path in {@code item}, or null when there is none. */
    AttributeValue get(Map<String, AttributeValue> item) {
        AttributeValue value = item.get(top());
        for (int i = 1; i < segments.size() && value != null; i++) {
            Object segment = segments.get(i);
            if (segment instanceof Integer index) {
                value = value.hasL() && index < value.l().size() ? value.l().get(index) : null;
            } else {
                value = value.hasM() ? value.m().get((String) segment) : null;
            }
        }
        return value;
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(top());
        segments.stream().skip(1).forEach(s -> out.append(s instanceof Integer i ? "[" + i + "]" : "." + s));
        return out.toString();
    }
}
