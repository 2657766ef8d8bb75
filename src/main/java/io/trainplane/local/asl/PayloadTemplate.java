package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A Parameters or ResultSelector payload template, compiled when the definition is loaded. Fields
 * whose names end in {@code .$} take a path ({@code $} the template's input, {@code $$} the context
 * object) or an intrinsic function, at any depth, inside arrays too; everything else is literal.
 * A path that names nothing fails the execution with States.Runtime, as Step Functions does.
 */
final class PayloadTemplate {
    private sealed interface Node permits Literal, Obj, Arr, PathValue, IntrinsicValue {}

    private record Literal(JsonNode value) implements Node {}

    private record Obj(List<Map.Entry<String, Node>> fields) implements Node {}

    private record Arr(List<Node> items) implements Node {}

    private record PathValue(String field, JsonPathExpr path) implements Node {}

    private record IntrinsicValue(Intrinsic.Call call) implements Node {}

    private final Node root;

    private PayloadTemplate(Node root) {
        this.root = root;
    }

    /** @throws AslException naming the state and the field */
    static PayloadTemplate parse(JsonNode template, String stateName, String field) {
        if (!template.isObject()) {
            throw new AslException(stateName, field, "a payload template must be a JSON object");
        }
        return new PayloadTemplate(compile(template, stateName, field));
    }

    private static Node compile(JsonNode node, String stateName, String field) {
        if (node.isArray()) {
            List<Node> items = new ArrayList<>();
            node.forEach(item -> items.add(compile(item, stateName, field)));
            return new Arr(items);
        }
        if (!node.isObject()) {
            return new Literal(node);
        }
        List<Map.Entry<String, Node>> fields = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Map.Entry<String, JsonNode> entry : node.properties()) {
            String key = entry.getKey();
            String name = key.endsWith(".$") ? key.substring(0, key.length() - 2) : key;
            if (!names.add(name)) {
                throw new AslException(stateName, field, "field '" + name + "' appears twice once '.$' is stripped");
            }
            fields.add(Map.entry(
                    name,
                    key.endsWith(".$")
                            ? dynamic(key, entry.getValue(), stateName, field)
                            : compile(entry.getValue(), stateName, field)));
        }
        return new Obj(fields);
    }

    private static Node dynamic(String key, JsonNode value, String stateName, String field) {
        if (!value.isTextual()) {
            throw new AslException(
                    stateName, field, "the value of '" + key + "' must be a path or an intrinsic function");
        }
        String text = value.textValue();
        try {
            if (text.startsWith("$")) {
                return new PathValue(key, JsonPathExpr.parse(text, true));
            }
            if (IntrinsicParser.looksLikeIntrinsic(text)) {
                return new IntrinsicValue(IntrinsicParser.parse(text));
            }
        } catch (IllegalArgumentException e) {
            throw new AslException(stateName, field, "'" + key + "': " + e.getMessage());
        }
        throw new AslException(
                stateName, field, "the value of '" + key + "' must be a path or an intrinsic function: '" + text + "'");
    }

    /** The payload for one input and context. */
    JsonNode evaluate(Scope scope) {
        return evaluate(root, scope);
    }

    private static JsonNode evaluate(Node node, Scope scope) {
        return switch (node) {
            case Literal literal -> literal.value().deepCopy();
            case Arr arr -> {
                ArrayNode out = Json.NODES.arrayNode();
                arr.items().forEach(item -> out.add(evaluate(item, scope)));
                yield out;
            }
            case Obj obj -> {
                ObjectNode out = Json.object();
                obj.fields().forEach(e -> out.set(e.getKey(), evaluate(e.getValue(), scope)));
                yield out;
            }
            case PathValue p -> pathValue(p, scope);
            case IntrinsicValue i -> IntrinsicFunctions.evaluate(i.call(), scope);
        };
    }

    private static JsonNode pathValue(PathValue p, Scope scope) {
        JsonNode found = p.path()
                .read(scope.input(), scope.context())
                .orElseThrow(() -> StatesError.runtime(
                        "The JSONPath '" + p.path().text() + "' specified for the field '" + p.field()
                                + "' could not be found in the "
                                + (p.path().isContext()
                                        ? "context object '" + Json.write(scope.context())
                                        : "input '" + Json.write(scope.input()))
                                + "'"));
        return found.deepCopy();
    }
}
