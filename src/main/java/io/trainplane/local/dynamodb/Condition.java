package io.trainplane.local.dynamodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A condition or filter expression, parsed once and evaluated against an item (an absent item is
 * the empty map). The grammar is the developer guide's
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Syntax):
 *
 * <pre>
 * condition ::= operand comparator operand | operand BETWEEN operand AND operand
 *             | operand IN ( operand (, operand)* ) | function
 *             | condition AND condition | condition OR condition | NOT condition | ( condition )
 * </pre>
 *
 * with its precedence, highest first: {@code = <> < <= > >=}, {@code IN}, {@code BETWEEN},
 * functions, parentheses, {@code NOT}, {@code AND}, {@code OR}
 * (#Expressions.OperatorsAndFunctions.Precedence).
 */
@FunctionalInterface
interface Condition {
    boolean test(Map<String, AttributeValue> item);

    /** The condition of {@code expression}; null or blank is the condition that always holds. */
    static Condition parse(String expression, Placeholders placeholders) {
        if (expression == null || expression.isBlank()) {
            return item -> true;
        }
        Tokens tokens = new Tokens(expression);
        Condition condition = or(tokens, placeholders);
        tokens.expectEnd();
        return condition;
    }

    private static Condition or(Tokens tokens, Placeholders p) {
        Condition left = and(tokens, p);
        while (tokens.takeKeyword("OR")) {
            Condition a = left;
            Condition b = and(tokens, p);
            left = item -> a.test(item) || b.test(item);
        }
        return left;
    }

    private static Condition and(Tokens tokens, Placeholders p) {
        Condition left = not(tokens, p);
        while (tokens.takeKeyword("AND")) {
            Condition a = left;
            Condition b = not(tokens, p);
            left = item -> a.test(item) && b.test(item);
        }
        return left;
    }

    private static Condition not(Tokens tokens, Placeholders p) {
        if (tokens.takeKeyword("NOT")) {
            Condition inner = not(tokens, p);
            return item -> !inner.test(item);
        }
        return primary(tokens, p);
    }

    private static Condition primary(Tokens tokens, Placeholders p) {
        if (tokens.takeSymbol("(")) {
            Condition inner = or(tokens, p);
            tokens.expect(")");
            return inner;
        }
        if (tokens.peek(1).equals("(") && !tokens.peek().equals("size")) {
            return Functions.condition(tokens, p);
        }
        Operand left = Operand.parse(tokens, p);
        if (tokens.takeKeyword("BETWEEN")) {
            Operand low = Operand.parse(tokens, p);
            if (!tokens.takeKeyword("AND")) {
                throw tokens.syntax(tokens.peek());
            }
            Operand high = Operand.parse(tokens, p);
            return item -> {
                AttributeValue v = left.eval(item);
                return AttributeValues.order(v, low.eval(item))
                                .filter(c -> c >= 0)
                                .isPresent()
                        && AttributeValues.order(v, high.eval(item))
                                .filter(c -> c <= 0)
                                .isPresent();
            };
        }
        if (tokens.takeKeyword("IN")) {
            tokens.expect("(");
            List<Operand> candidates = new ArrayList<>();
            do {
                candidates.add(Operand.parse(tokens, p));
            } while (tokens.takeSymbol(","));
            tokens.expect(")");
            return item -> {
                AttributeValue v = left.eval(item);
                return candidates.stream().anyMatch(c -> AttributeValues.same(v, c.eval(item)));
            };
        }
        String comparator = tokens.take();
        Operand right = Operand.parse(tokens, p);
        return comparison(comparator, left, right, tokens);
    }

    /**
     * {@code a = b} holds when both exist and are equal; {@code a <> b} when they are not equal
     * (an absent attribute is unequal to every value); the order comparators hold only between two
     * values of one scalar type (#Expressions.OperatorsAndFunctions.Comparators).
     */
    private static Condition comparison(String comparator, Operand left, Operand right, Tokens tokens) {
        return switch (comparator) {
            case "=" -> item -> AttributeValues.same(left.eval(item), right.eval(item));
            case "<>" -> item -> !AttributeValues.same(left.eval(item), right.eval(item));
            case "<" -> ordered(left, right, c -> c < 0);
            case "<=" -> ordered(left, right, c -> c <= 0);
            case ">" -> ordered(left, right, c -> c > 0);
            case ">=" -> ordered(left, right, c -> c >= 0);
            default -> throw tokens.syntax(comparator);
        };
    }

    private static Condition ordered(Operand left, Operand right, java.util.function.IntPredicate holds) {
        return item -> AttributeValues.order(left.eval(item), right.eval(item))
                .filter(holds::test)
                .isPresent();
    }
}
