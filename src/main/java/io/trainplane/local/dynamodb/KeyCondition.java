package io.trainplane.local.dynamodb;

import java.util.Map;
import java.util.function.Predicate;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A Query's key condition: equality on the partition key, and at most one condition on the sort
 * key, joined by {@code AND}
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Query.KeyConditionExpressions.html):
 *
 * <pre>
 * partitionKey = :v [AND sortKey (= | &lt; | &lt;= | &gt; | &gt;=) :v | sortKey BETWEEN :a AND :b | begins_with(sortKey, :v)]
 * </pre>
 *
 * @param partition the partition key's value
 * @param sort what the sort key must satisfy (always true without a sort key condition)
 */
record KeyCondition(AttributeValue partition, Predicate<AttributeValue> sort) {

    static KeyCondition parse(String expression, Placeholders p, String hashKey, String rangeKey) {
        if (expression == null || expression.isBlank()) {
            throw Errors.validation("Either the KeyConditions or KeyConditionExpression parameter must be specified"
                    + " in the request.");
        }
        Tokens tokens = new Tokens(expression);
        AttributeValue partition = null;
        Predicate<AttributeValue> sort = null;
        do {
            boolean parenthesized = tokens.takeSymbol("(");
            Term term = term(tokens, p);
            if (parenthesized) {
                tokens.expect(")");
            }
            if (term.attribute.equals(hashKey) && term.equality != null && partition == null) {
                partition = term.equality;
            } else if (term.attribute.equals(rangeKey) && sort == null) {
                sort = term.test;
            } else {
                throw Errors.validation("Query key condition not supported");
            }
        } while (tokens.takeKeyword("AND"));
        tokens.expectEnd();
        if (partition == null) {
            throw Errors.validation("Query condition missed key schema element: " + hashKey);
        }
        return new KeyCondition(partition, sort == null ? v -> true : sort);
    }

    private record Term(String attribute, AttributeValue equality, Predicate<AttributeValue> test) {}

    private static Term term(Tokens tokens, Placeholders p) {
        if (tokens.peek().equals("begins_with")) {
            tokens.take();
            tokens.expect("(");
            Path path = Path.parse(tokens, p);
            tokens.expect(",");
            AttributeValue prefix = value(tokens, p);
            tokens.expect(")");
            return new Term(path.top(), null, v -> Functions.beginsWith(v, prefix));
        }
        Path path = Path.parse(tokens, p);
        if (tokens.takeKeyword("BETWEEN")) {
            AttributeValue low = value(tokens, p);
            if (!tokens.takeKeyword("AND")) {
                throw tokens.syntax(tokens.peek());
            }
            AttributeValue high = value(tokens, p);
            return new Term(
                    path.top(),
                    null,
                    v -> AttributeValues.order(v, low).filter(c -> c >= 0).isPresent()
                            && AttributeValues.order(v, high)
                                    .filter(c -> c <= 0)
                                    .isPresent());
        }
        String comparator = tokens.take();
        AttributeValue operand = value(tokens, p);
        return switch (comparator) {
            case "=" -> new Term(path.top(), operand, v -> AttributeValues.same(v, operand));
            case "<" ->
                new Term(path.top(), null, v -> AttributeValues.order(v, operand)
                        .filter(c -> c < 0)
                        .isPresent());
            case "<=" ->
                new Term(path.top(), null, v -> AttributeValues.order(v, operand)
                        .filter(c -> c <= 0)
                        .isPresent());
            case ">" ->
                new Term(path.top(), null, v -> AttributeValues.order(v, operand)
                        .filter(c -> c > 0)
                        .isPresent());
            case ">=" ->
                new Term(path.top(), null, v -> AttributeValues.order(v, operand)
                        .filter(c -> c >= 0)
                        .isPresent());
            default ->
                throw Errors.validation(
                        "Invalid KeyConditionExpression: Invalid operator used in KeyConditionExpression: "
                                + comparator);
        };
    }

    private static AttributeValue value(Tokens tokens, Placeholders p) {
        String token = tokens.take();
        if (!token.startsWith(":")) {
            throw tokens.syntax(token);
        }
        return p.value(token);
    }

    /** Whether an item's keys satisfy the condition. */
    boolean matches(Map<String, AttributeValue> item, String hashKey, String rangeKey) {
        return AttributeValues.same(item.get(hashKey), partition)
                && (rangeKey == null || sort.test(item.get(rangeKey)));
    }
}
