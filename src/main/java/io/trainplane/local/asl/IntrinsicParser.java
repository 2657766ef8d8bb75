package io.trainplane.local.asl;

import io.trainplane.core.Json;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Parses intrinsic function invocations: {@code States.Name(arg, ...)} where an argument is a
 * quoted string (escapes \' \{ \} \\), a number, true, false, null, a path, or a nested invocation.
 * Only the functions the executor implements are accepted, with their arity checked.
 */
final class IntrinsicParser {
    /** Implemented functions: name to {minimum, maximum} argument count (-1: no maximum). */
    static final Map<String, int[]> FUNCTIONS = Map.of(
            "States.Format", new int[] {1, -1},
            "States.StringToJson", new int[] {1, 1},
            "States.JsonToString", new int[] {1, 1},
            "States.Array", new int[] {0, -1},
            "States.MathAdd", new int[] {2, 2},
            "States.UUID", new int[] {0, 0},
            "States.ArrayLength", new int[] {1, 1});

    private final String text;
    private int pos;

    private IntrinsicParser(String text) {
        this.text = text;
    }

    static boolean looksLikeIntrinsic(String text) {
        return text.startsWith("States.");
    }

    /** @throws IllegalArgumentException saying what is wrong */
    static Intrinsic.Call parse(String text) {
        IntrinsicParser parser = new IntrinsicParser(text);
        Intrinsic.Call call = parser.call();
        parser.skipSpaces();
        if (parser.pos != text.length()) {
            throw parser.error("unexpected text after the closing parenthesis");
        }
        return call;
    }

    private Intrinsic.Call call() {
        int start = pos;
        while (pos < text.length()
                && (Character.isLetterOrDigit(text.charAt(pos)) || "._".indexOf(text.charAt(pos)) >= 0)) {
            pos++;
        }
        String name = text.substring(start, pos);
        int[] arity = FUNCTIONS.get(name);
        if (arity == null) {
            throw new IllegalArgumentException(
                    "intrinsic function '" + name + "' is not supported by the local executor" + " (supported: "
                            + String.join(", ", new java.util.TreeSet<>(FUNCTIONS.keySet())) + ")");
        }
        expect('(');
        List<Intrinsic> args = new ArrayList<>();
        skipSpaces();
        if (peek() != ')') {
            args.add(argument());
            skipSpaces();
            while (peek() == ',') {
                pos++;
                skipSpaces();
                args.add(argument());
                skipSpaces();
            }
        }
        expect(')');
        if (args.size() < arity[0] || (arity[1] >= 0 && args.size() > arity[1])) {
            throw new IllegalArgumentException(name + " takes "
                    + (arity[0] == arity[1]
                            ? String.valueOf(arity[0])
                            : arity[1] < 0 ? "at least " + arity[0] : arity[0] + " to " + arity[1])
                    + " argument(s), got " + args.size());
        }
        if (name.equals("States.Format")
                && args.get(0) instanceof Intrinsic.StringLiteral template
                && template.formatPieces().size() - 1 != args.size() - 1) {
            throw new IllegalArgumentException(
                    "the States.Format string has " + (template.formatPieces().size() - 1) + " placeholder(s) but "
                            + (args.size() - 1) + " value(s) are given");
        }
        if (name.equals("States.JsonToString") && !(args.get(0) instanceof Intrinsic.PathArg)) {
            throw new IllegalArgumentException("the argument of States.JsonToString must be a path");
        }
        return new Intrinsic.Call(name, args);
    }

    private Intrinsic argument() {
        char c = peek();
        if (c == '\'') {
            return string();
        }
        if (c == '$') {
            return new Intrinsic.PathArg(JsonPathExpr.parse(pathText(), true));
        }
        if (c == '-' || Character.isDigit(c)) {
            return new Intrinsic.Literal(number());
        }
        if (text.startsWith("States.", pos)) {
            return call();
        }
        for (String word : List.of("null", "true", "false")) {
            if (text.startsWith(word, pos)) {
                pos += word.length();
                return new Intrinsic.Literal(
                        switch (word) {
                            case "null" -> Json.NODES.nullNode();
                            case "true" -> Json.NODES.booleanNode(true);
                            default -> Json.NODES.booleanNode(false);
                        });
            }
        }
        throw error("expected an argument");
    }

    private Intrinsic.StringLiteral string() {
        pos++;
        StringBuilder value = new StringBuilder();
        StringBuilder piece = new StringBuilder();
        List<String> pieces = new ArrayList<>();
        while (pos < text.length()) {
            char c = text.charAt(pos++);
            if (c == '\'') {
                pieces.add(piece.toString());
                return new Intrinsic.StringLiteral(value.toString(), pieces);
            }
            if (c == '{' && peek() == '}') {
                pos++;
                value.append("{}");
                pieces.add(piece.toString());
                piece.setLength(0);
                continue;
            }
            if (c == '{' || c == '}') {
                throw error("'" + c + "' must be escaped in a string argument");
            }
            if (c == '\\') {
                if (pos >= text.length() || "'{}\\".indexOf(text.charAt(pos)) < 0) {
                    throw error("open escape backslash in a string argument");
                }
                c = text.charAt(pos++);
            }
            value.append(c);
            piece.append(c);
        }
        throw error("unterminated string argument");
    }

    private String pathText() {
        int start = pos;
        boolean inBrackets = false;
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '[') {
                inBrackets = true;
            } else if (c == ']') {
                inBrackets = false;
            } else if (!inBrackets && (c == ',' || c == ')' || Character.isWhitespace(c))) {
                break;
            }
            pos++;
        }
        return text.substring(start, pos);
    }

    private com.fasterxml.jackson.databind.JsonNode number() {
        int start = pos;
        pos++;
        while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || ".eE+-".indexOf(text.charAt(pos)) >= 0)) {
            pos++;
        }
        String literal = text.substring(start, pos);
        try {
            BigDecimal value = new BigDecimal(literal);
            if (value.scale() <= 0 && value.abs().compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
                return Json.NODES.numberNode(value.intValueExact());
            }
            if (value.scale() <= 0 && value.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
                return Json.NODES.numberNode(value.longValueExact());
            }
            return Json.NODES.numberNode(value.doubleValue());
        } catch (NumberFormatException | ArithmeticException e) {
            throw error("malformed number '" + literal + "'");
        }
    }

    private char peek() {
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    private void expect(char c) {
        if (peek() != c) {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private void skipSpaces() {
        while (pos < text.length() && text.charAt(pos) == ' ') {
            pos++;
        }
    }

    private IllegalArgumentException error(String message) {
        return new IllegalArgumentException(message + " at position " + pos + " of intrinsic function '" + text + "'");
    }
}
