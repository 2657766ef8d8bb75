package io.trainplane.local.dynamodb;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The tokens of an expression, read left to right: names ({@code status}, {@code #s}), value
 * placeholders ({@code :v}), list indexes, and the punctuation of
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Syntax
 * and https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html.
 * Keywords ({@code AND}, {@code SET}, …) are case-insensitive; function names are not.
 */
final class Tokens {
    private final String expression;
    private final List<String> tokens;
    private int next;

    Tokens(String expression) {
        this.expression = expression;
        this.tokens = split(expression);
    }

    private static List<String> split(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '<' || c == '>') {
                boolean two = i + 1 < s.length() && (s.charAt(i + 1) == '=' || (c == '<' && s.charAt(i + 1) == '>'));
                out.add(s.substring(i, i + (two ? 2 : 1)));
                i += two ? 2 : 1;
            } else if ("=(),.[]+-".indexOf(c) >= 0) {
                out.add(String.valueOf(c));
                i++;
            } else if (c == '#' || c == ':' || Character.isLetterOrDigit(c) || c == '_') {
                int j = i + 1;
                while (j < s.length() && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
                    j++;
                }
                out.add(s.substring(i, j));
                i = j;
            } else {
                throw Errors.validation("Invalid expression: Syntax error; token: \"" + c + "\", near: \"" + s + "\"");
            }
        }
        return out;
    }

    boolean atEnd() {
        return next >= tokens.size();
    }

    String peek() {
        return atEnd() ? "" : tokens.get(next);
    }

    String peek(int ahead) {
        return next + ahead < tokens.size() ? tokens.get(next + ahead) : "";
    }

    String take() {
        if (atEnd()) {
            throw syntax("<EOF>");
        }
        return tokens.get(next++);
    }

    /** Whether the next token is {@code keyword} (case-insensitive); takes it if so. */
    boolean takeKeyword(String keyword) {
        if (peek().toUpperCase(Locale.ROOT).equals(keyword)) {
            next++;
            return true;
        }
        return false;
    }

    boolean isKeyword(String keyword) {
        return peek().toUpperCase(Locale.ROOT).equals(keyword);
    }

    /** Whether the next token is exactly {@code symbol}; takes it if so. */
    boolean takeSymbol(String symbol) {
        if (peek().equals(symbol)) {
            next++;
            return true;
        }
        return false;
    }

    void expect(String symbol) {
        if (!takeSymbol(symbol)) {
            throw syntax(atEnd() ? "<EOF>" : peek());
        }
    }

    void expectEnd() {
        if (!atEnd()) {
            throw syntax(peek());
        }
    }

    RuntimeException syntax(String token) {
        return Errors.validation(
                "Invalid expression: Syntax error; token: \"" + token + "\", near: \"" + expression + "\"");
    }
}
