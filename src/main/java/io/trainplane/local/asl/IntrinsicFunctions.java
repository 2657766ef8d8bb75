package io.trainplane.local.asl;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates intrinsic functions. A failure (wrong argument type, a path that names nothing,
 * unparsable JSON) is a States.Runtime error, which is what Step Functions reports for it.
 */
final class IntrinsicFunctions {
    private IntrinsicFunctions() {}

    static JsonNode evaluate(Intrinsic.Call call, Scope scope) {
        return switch (call.name()) {
            case "States.Format" -> format(call, scope);
            case "States.StringToJson" -> stringToJson(call, string(call, 0, scope));
            case "States.JsonToString" ->
                Json.NODES.textNode(Json.write(value(call.args().get(0), call, scope)));
            case "States.Array" -> array(call, scope);
            case "States.MathAdd" -> mathAdd(call, scope);
            case "States.UUID" -> Json.NODES.textNode(scope.uuids().get());
            case "States.ArrayLength" -> arrayLength(call, scope);
            default -> throw new IllegalStateException("unparsed intrinsic " + call.name());
        };
    }

    private static JsonNode value(Intrinsic arg, Intrinsic.Call call, Scope scope) {
        return switch (arg) {
            case Intrinsic.Literal literal -> literal.value();
            case Intrinsic.StringLiteral literal -> Json.NODES.textNode(literal.value());
            case Intrinsic.PathArg pathArg ->
                pathArg.path()
                        .read(scope.input(), scope.context())
                        .orElseThrow(() -> failure(
                                call,
                                "the JSONPath '" + pathArg.path().text()
                                        + "' could not be found in the "
                                        + (pathArg.path().isContext() ? "context object" : "input")
                                        + " '"
                                        + Json.write(pathArg.path().isContext() ? scope.context() : scope.input())
                                        + "'"));
            case Intrinsic.Call nested -> evaluate(nested, scope);
        };
    }

    private static String string(Intrinsic.Call call, int index, Scope scope) {
        JsonNode value = value(call.args().get(index), call, scope);
        if (!value.isTextual()) {
            throw failure(call, "argument " + (index + 1) + " must be a string, got " + Json.typeName(value));
        }
        return value.textValue();
    }

    private static JsonNode format(Intrinsic.Call call, Scope scope) {
        List<String> pieces = call.args().get(0) instanceof Intrinsic.StringLiteral literal
                ? literal.formatPieces()
                : List.of(string(call, 0, scope).split("\\{}", -1));
        int placeholders = pieces.size() - 1;
        if (placeholders != call.args().size() - 1) {
            throw failure(
                    call,
                    "the format string has " + placeholders + " placeholder(s) but "
                            + (call.args().size() - 1) + " value(s) are given");
        }
        StringBuilder out = new StringBuilder(pieces.get(0));
        for (int i = 1; i < call.args().size(); i++) {
            JsonNode value = value(call.args().get(i), call, scope);
            if (value.isContainerNode()) {
                throw failure(
                        call,
                        "argument " + (i + 1) + " must be a string, number, boolean or null, got "
                                + Json.typeName(value));
            }
            out.append(value.isTextual() ? value.textValue() : value.isNull() ? "null" : value.asText());
            out.append(pieces.get(i));
        }
        return Json.NODES.textNode(out.toString());
    }

    private static JsonNode stringToJson(Intrinsic.Call call, String text) {
        try {
            JsonNode parsed = Json.strictMapper().readTree(text);
            if (parsed == null || parsed.isMissingNode()) {
                throw failure(call, "the argument is not JSON text: '" + text + "'");
            }
            return parsed;
        } catch (JsonProcessingException e) {
            throw failure(call, "the argument is not JSON text: '" + text + "'");
        }
    }

    private static JsonNode array(Intrinsic.Call call, Scope scope) {
        ArrayNode array = Json.NODES.arrayNode();
        List<JsonNode> values = new ArrayList<>();
        for (Intrinsic arg : call.args()) {
            values.add(value(arg, call, scope));
        }
        return array.addAll(values);
    }

    private static JsonNode mathAdd(Intrinsic.Call call, Scope scope) {
        long sum = 0;
        for (int i = 0; i < 2; i++) {
            JsonNode value = value(call.args().get(i), call, scope);
            if (!value.isNumber()) {
                throw failure(call, "argument " + (i + 1) + " must be a number, got " + Json.typeName(value));
            }
            long rounded = Math.round(value.doubleValue());
            if (rounded < Integer.MIN_VALUE || rounded > Integer.MAX_VALUE) {
                throw failure(call, "argument " + (i + 1) + " is outside the range -2147483648 to 2147483647");
            }
            sum += rounded;
        }
        return sum == (int) sum ? Json.NODES.numberNode((int) sum) : Json.NODES.numberNode(sum);
    }

    private static JsonNode arrayLength(Intrinsic.Call call, Scope scope) {
        JsonNode value = value(call.args().get(0), call, scope);
        if (!value.isArray()) {
            throw failure(call, "the argument must be an array, got " + Json.typeName(value));
        }
        return Json.NODES.numberNode(value.size());
    }

    private static StatesError failure(Intrinsic.Call call, String message) {
        return StatesError.runtime(call.name() + ": " + message);
    }
}
