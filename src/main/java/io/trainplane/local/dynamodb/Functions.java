package io.trainplane.local.dynamodb;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The functions of condition and filter expressions: {@code attribute_exists},
 * {@code attribute_not_exists}, {@code attribute_type}, {@code begins_with}, {@code contains}
 * and {@code size} (names case-sensitive), as
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Functions
 * defines them.
 */
final class Functions {
    private static final Set<String> TYPES = Set.of("S", "SS", "N", "NS", "B", "BS", "BOOL", "NULL", "L", "M");

    private Functions() {}

    static Condition condition(Tokens tokens, Placeholders p) {
        String function = tokens.take();
        tokens.expect("(");
        Condition condition =
                switch (function) {
                    case "attribute_exists" -> {
                        Path path = Path.parse(tokens, p);
                        yield item -> path.get(item) != null;
                    }
                    case "attribute_not_exists" -> {
                        Path path = Path.parse(tokens, p);
                        yield item -> path.get(item) == null;
                    }
                    case "attribute_type" -> {
                        Path path = Path.parse(tokens, p);
                        tokens.expect(",");
                        Operand type = Operand.parse(tokens, p);
                        yield item -> {
                            AttributeValue v = path.get(item);
                            AttributeValue t = type.eval(item);
                            return v != null
                                    && t != null
                                    && t.s() != null
                                    && TYPES.contains(t.s())
                                    && typeName(v).equals(t.s());
                        };
                    }
                    case "begins_with" -> {
                        Operand value = Operand.parse(tokens, p);
                        tokens.expect(",");
                        Operand prefix = Operand.parse(tokens, p);
                        yield item -> beginsWith(value.eval(item), prefix.eval(item));
                    }
                    case "contains" -> {
                        Operand value = Operand.parse(tokens, p);
                        tokens.expect(",");
                        Operand element = Operand.parse(tokens, p);
                        yield item -> contains(value.eval(item), element.eval(item));
                    }
                    default ->
                        throw Errors.validation(
                                "Invalid ConditionExpression: Invalid function name; function: " + function);
                };
        tokens.expect(")");
        return condition;
    }

    /** A string starting with a string, or binary with binary. */
    static boolean beginsWith(AttributeValue value, AttributeValue prefix) {
        if (value == null || prefix == null) {
            return false;
        }
        if (value.s() != null && prefix.s() != null) {
            return value.s().startsWith(prefix.s());
        }
        if (value.b() != null && prefix.b() != null) {
            byte[] v = value.b().asByteArray();
            byte[] x = prefix.b().asByteArray();
            return v.length >= x.length && java.util.Arrays.equals(v, 0, x.length, x, 0, x.length);
        }
        return false;
    }

    /** A substring of a string, a member of a set, or an element of a list. */
    static boolean contains(AttributeValue value, AttributeValue element) {
        if (value == null || element == null) {
            return false;
        }
        return switch (value.type()) {
            case S -> element.s() != null && value.s().contains(element.s());
            case SS -> element.s() != null && value.ss().contains(element.s());
            case NS ->
                element.n() != null
                        && value.ns().stream()
                                .anyMatch(n -> new BigDecimal(n).compareTo(new BigDecimal(element.n())) == 0);
            case BS -> element.b() != null && value.bs().contains(element.b());
            case L -> value.l().stream().anyMatch(e -> AttributeValues.same(e, element));
            default -> false;
        };
    }

    /** The size of a string (characters), binary (bytes), set, list or map (elements); null otherwise. */
    static AttributeValue size(AttributeValue value) {
        if (value == null) {
            return null;
        }
        Integer size =
                switch (value.type()) {
                    case S -> value.s().length();
                    case B -> value.b().asByteArray().length;
                    case SS -> value.ss().size();
                    case NS -> value.ns().size();
                    case BS -> value.bs().size();
                    case L -> value.l().size();
                    case M -> value.m().size();
                    default -> null;
                };
        return size == null ? null : AttributeValue.fromN(size.toString());
    }

    static String typeName(AttributeValue v) {
        return v.type() == AttributeValue.Type.NUL ? "NULL" : v.type().name().toUpperCase(Locale.ROOT);
    }
}
