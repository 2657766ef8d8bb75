package io.trainplane.local.dynamodb;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An update expression: {@code SET}, {@code REMOVE}, {@code ADD} and {@code DELETE} clauses, each
 * at most once, in any order; every right-hand side reads the item as it was before the update
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html):
 *
 * <pre>
 * update ::= SET action (, action)* | REMOVE path (, path)* | ADD path value (, ...)* | DELETE path value (, ...)*
 * SET action ::= path = value   value ::= operand | operand + operand | operand - operand
 * operand ::= path | :value | if_not_exists(path, value) | list_append(operand, operand)
 * </pre>
 *
 * Actions change top-level attributes only (the project's use); a nested path on the left is
 * refused with {@link UnsupportedOperationException}.
 */
final class Update {
    private interface Action {
        void apply(Map<String, AttributeValue> before, Map<String, AttributeValue> after);
    }

    private final List<Action> actions;
    private final Set<String> changed;

    private Update(List<Action> actions, Set<String> changed) {
        this.actions = actions;
        this.changed = changed;
    }

    /** The top-level attributes the update names on its left-hand sides. */
    Set<String> changed() {
        return changed;
    }

    static Update parse(String expression, Placeholders p) {
        Tokens tokens = new Tokens(expression);
        List<Action> actions = new ArrayList<>();
        Set<String> changed = new LinkedHashSet<>();
        Set<String> clauses = new LinkedHashSet<>();
        while (!tokens.atEnd()) {
            String clause = tokens.take().toUpperCase(java.util.Locale.ROOT);
            if (!clauses.add(clause)) {
                throw Errors.validation("Invalid UpdateExpression: The \"" + clause
                        + "\" section can only be used once in an update expression;");
            }
            do {
                Path path = target(tokens, p, changed);
                actions.add(
                        switch (clause) {
                            case "SET" -> set(tokens, p, path);
                            case "REMOVE" -> (before, after) -> after.remove(path.top());
                            case "ADD" -> add(path, Operand.parse(tokens, p));
                            case "DELETE" -> delete(path, Operand.parse(tokens, p));
                            default -> throw tokens.syntax(clause);
                        });
            } while (tokens.takeSymbol(","));
        }
        if (actions.isEmpty()) {
            throw Errors.validation("Invalid UpdateExpression: The expression can not be empty;");
        }
        return new Update(actions, changed);
    }

    private static Path target(Tokens tokens, Placeholders p, Set<String> changed) {
        Path path = Path.parse(tokens, p);
        if (!path.isTopLevel()) {
            throw new UnsupportedOperationException(
                    "UpdateItem with a nested path on the left of an update action (" + path + ")");
        }
        if (!changed.add(path.top())) {
            throw Errors.validation("Invalid UpdateExpression: Two document paths overlap with each other;"
                    + " must remove or rewrite one of these paths; path one: [" + path + "], path two: [" + path + "]");
        }
        return path;
    }

    private static Action set(Tokens tokens, Placeholders p, Path path) {
        tokens.expect("=");
        Operand value = value(tokens, p);
        return (before, after) -> after.put(path.top(), value.eval(before));
    }

    /** {@code operand}, {@code operand + operand} or {@code operand - operand}: numbers only. */
    private static Operand value(Tokens tokens, Placeholders p) {
        Operand left = operand(tokens, p);
        if (tokens.peek().equals("+") || tokens.peek().equals("-")) {
            boolean plus = tokens.take().equals("+");
            Operand right = operand(tokens, p);
            return item -> {
                AttributeValue a = required(left.eval(item));
                AttributeValue b = required(right.eval(item));
                if (a.n() == null || b.n() == null) {
                    throw Errors.validation("An operand in the update expression has an incorrect data type");
                }
                BigDecimal x = new BigDecimal(a.n());
                BigDecimal y = new BigDecimal(b.n());
                return AttributeValue.fromN((plus ? x.add(y) : x.subtract(y)).toPlainString());
            };
        }
        return required(left);
    }

    private static Operand required(Operand operand) {
        return item -> required(operand.eval(item));
    }

    private static AttributeValue required(AttributeValue value) {
        if (value == null) {
            throw Errors.validation("The provided expression refers to an attribute that does not exist in the item");
        }
        return value;
    }

    private static Operand operand(Tokens tokens, Placeholders p) {
        if (tokens.peek().equals("if_not_exists") && tokens.peek(1).equals("(")) {
            tokens.take();
            tokens.expect("(");
            Path path = Path.parse(tokens, p);
            tokens.expect(",");
            Operand fallback = value(tokens, p);
            tokens.expect(")");
            return item -> {
                AttributeValue present = path.get(item);
                return present != null ? present : fallback.eval(item);
            };
        }
        if (tokens.peek().equals("list_append") && tokens.peek(1).equals("(")) {
            tokens.take();
            tokens.expect("(");
            Operand first = value(tokens, p);
            tokens.expect(",");
            Operand second = value(tokens, p);
            tokens.expect(")");
            return item -> {
                AttributeValue a = first.eval(item);
                AttributeValue b = second.eval(item);
                if (!a.hasL() || !b.hasL()) {
                    throw Errors.validation("An operand in the update expression has an incorrect data type");
                }
                List<AttributeValue> joined = new ArrayList<>(a.l());
                joined.addAll(b.l());
                return AttributeValue.fromL(joined);
            };
        }
        return Operand.parse(tokens, p);
    }

    /** ADD: a number adds to a number (an absent one is 0); a set's elements join a set. */
    private static Action add(Path path, Operand operand) {
        return (before, after) -> {
            AttributeValue delta = operand.eval(before);
            AttributeValue current = before.get(path.top());
            AttributeValue result;
            if (delta.n() != null && (current == null || current.n() != null)) {
                BigDecimal base = current == null ? BigDecimal.ZERO : new BigDecimal(current.n());
                result =
                        AttributeValue.fromN(base.add(new BigDecimal(delta.n())).toPlainString());
            } else if (delta.hasSs() && (current == null || current.hasSs())) {
                Set<String> union = new LinkedHashSet<>(current == null ? List.of() : current.ss());
                union.addAll(delta.ss());
                result = AttributeValue.fromSs(new ArrayList<>(union));
            } else if (delta.hasNs() && (current == null || current.hasNs())) {
                Set<String> union = new LinkedHashSet<>(current == null ? List.of() : current.ns());
                union.addAll(delta.ns());
                result = AttributeValue.fromNs(new ArrayList<>(union));
            } else {
                throw Errors.validation("Invalid UpdateExpression: Incorrect operand type for operator or function;"
                        + " operator: ADD");
            }
            after.put(path.top(), result);
        };
    }

    /** DELETE: a set's elements leave a set; an emptied set is removed. */
    private static Action delete(Path path, Operand operand) {
        return (before, after) -> {
            AttributeValue gone = operand.eval(before);
            AttributeValue current = before.get(path.top());
            if (current == null) {
                return;
            }
            if (gone.hasSs() && current.hasSs()) {
                List<String> left = new ArrayList<>(current.ss());
                left.removeAll(gone.ss());
                put(after, path.top(), left.isEmpty() ? null : AttributeValue.fromSs(left));
            } else if (gone.hasNs() && current.hasNs()) {
                List<String> left = new ArrayList<>(current.ns());
                left.removeAll(gone.ns());
                put(after, path.top(), left.isEmpty() ? null : AttributeValue.fromNs(left));
            } else {
                throw Errors.validation("Invalid UpdateExpression: Incorrect operand type for operator or function;"
                        + " operator: DELETE");
            }
        };
    }

    private static void put(Map<String, AttributeValue> item, String name, AttributeValue value) {
        if (value == null) {
            item.remove(name);
        } else {
            item.put(name, value);
        }
    }

    /** The item after the update; {@code before} (the empty map for a new item) is left as it is. */
    Map<String, AttributeValue> apply(Map<String, AttributeValue> before) {
        Map<String, AttributeValue> after = new LinkedHashMap<>(before);
        actions.forEach(action -> action.apply(before, after));
        return after;
    }
}
