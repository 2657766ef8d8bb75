package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Choice comparison operators the executor implements. A comparison whose Variable holds a
 * value of another type than the operator compares is false (no error), as on AWS.
 */
enum ComparisonOperator {
    STRING_EQUALS("StringEquals", Operand.STRING),
    STRING_EQUALS_PATH("StringEqualsPath", Operand.PATH),
    STRING_MATCHES("StringMatches", Operand.STRING),
    NUMERIC_EQUALS("NumericEquals", Operand.NUMBER),
    NUMERIC_EQUALS_PATH("NumericEqualsPath", Operand.PATH),
    NUMERIC_LESS_THAN("NumericLessThan", Operand.NUMBER),
    NUMERIC_LESS_THAN_EQUALS("NumericLessThanEquals", Operand.NUMBER),
    NUMERIC_GREATER_THAN("NumericGreaterThan", Operand.NUMBER),
    NUMERIC_GREATER_THAN_EQUALS("NumericGreaterThanEquals", Operand.NUMBER),
    BOOLEAN_EQUALS("BooleanEquals", Operand.BOOLEAN),
    IS_PRESENT("IsPresent", Operand.BOOLEAN),
    IS_NULL("IsNull", Operand.BOOLEAN),
    IS_STRING("IsString", Operand.BOOLEAN),
    IS_NUMERIC("IsNumeric", Operand.BOOLEAN),
    IS_BOOLEAN("IsBoolean", Operand.BOOLEAN);

    /** What the operator's value in the definition must be. */
    enum Operand {
        STRING,
        NUMBER,
        BOOLEAN,
        PATH
    }

    private final String field;
    private final Operand operand;

    ComparisonOperator(String field, Operand operand) {
        this.field = field;
        this.operand = operand;
    }

    String field() {
        return field;
    }

    Operand operand() {
        return operand;
    }

    static Optional<ComparisonOperator> byField(String field) {
        return Arrays.stream(values()).filter(op -> op.field.equals(field)).findFirst();
    }

    /**
     * Tests a present variable value against the operator's (resolved) operand.
     *
     * @param value the Variable's value
     * @param operand the literal operand, or for *Path operators the value the path names
     */
    boolean test(JsonNode value, JsonNode operand) {
        return switch (this) {
            case STRING_EQUALS, STRING_EQUALS_PATH ->
                value.isTextual() && operand.isTextual() && value.textValue().equals(operand.textValue());
            case STRING_MATCHES -> value.isTextual() && matchesWildcard(value.textValue(), operand.textValue());
            case NUMERIC_EQUALS, NUMERIC_EQUALS_PATH -> bothNumbers(value, operand) && compare(value, operand) == 0;
            case NUMERIC_LESS_THAN -> bothNumbers(value, operand) && compare(value, operand) < 0;
            case NUMERIC_LESS_THAN_EQUALS -> bothNumbers(value, operand) && compare(value, operand) <= 0;
            case NUMERIC_GREATER_THAN -> bothNumbers(value, operand) && compare(value, operand) > 0;
            case NUMERIC_GREATER_THAN_EQUALS -> bothNumbers(value, operand) && compare(value, operand) >= 0;
            case BOOLEAN_EQUALS -> value.isBoolean() && value.booleanValue() == operand.booleanValue();
            case IS_PRESENT -> operand.booleanValue();
            case IS_NULL -> value.isNull() == operand.booleanValue();
            case IS_STRING -> value.isTextual() == operand.booleanValue();
            case IS_NUMERIC -> value.isNumber() == operand.booleanValue();
            case IS_BOOLEAN -> value.isBoolean() == operand.booleanValue();
        };
    }

    private static boolean bothNumbers(JsonNode value, JsonNode operand) {
        return value.isNumber() && operand.isNumber();
    }

    private static int compare(JsonNode value, JsonNode operand) {
        return value.decimalValue().compareTo(operand.decimalValue());
    }

    /**
     * StringMatches: {@code *} matches any run of characters; {@code \*} is a literal star and
     * {@code \\} a literal backslash. Nothing else is special.
     */
    static boolean matchesWildcard(String text, String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\'
                    && i + 1 < pattern.length()
                    && (pattern.charAt(i + 1) == '*' || pattern.charAt(i + 1) == '\\')) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '*') {
                regex.append(".*");
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.DOTALL).matcher(text).matches();
    }
}
