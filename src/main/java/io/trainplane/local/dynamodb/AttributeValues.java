package io.trainplane.local.dynamodb;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Attribute values as the store keeps and compares them: the DynamoDB JSON of an item (the wire
 * form, {@code {"S": "..."}}, {@code {"N": "..."}}, …), value equality (numbers by value, sets
 * unordered) and the ordering of scalars, which is DynamoDB's: numbers by value, strings by their
 * UTF-8 bytes, binary bytes unsigned
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html#HowItWorks.DataTypes,
 * and the comparators of
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.OperatorsAndFunctions.html#Expressions.OperatorsAndFunctions.Comparators).
 */
final class AttributeValues {
    private static final ObjectMapper JSON = new ObjectMapper();

    private AttributeValues() {}

    /** The item as DynamoDB JSON: one object, attribute name to typed value. */
    static String toJson(Map<String, AttributeValue> item) {
        ObjectNode root = JSON.createObjectNode();
        item.forEach((name, value) -> root.set(name, node(value)));
        return root.toString();
    }

    static Map<String, AttributeValue> fromJson(String json) {
        try {
            JsonNode root = JSON.readTree(json);
            Map<String, AttributeValue> item = new LinkedHashMap<>();
            root.properties().forEach(e -> item.put(e.getKey(), value(e.getValue())));
            return item;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("a stored item is not DynamoDB JSON: " + json, e);
        }
    }

    private static JsonNode node(AttributeValue v) {
        ObjectNode n = JSON.createObjectNode();
        switch (v.type()) {
            case S -> n.put("S", v.s());
            case N -> n.put("N", v.n());
            case B -> n.put("B", base64(v.b()));
            case BOOL -> n.put("BOOL", v.bool());
            case NUL -> n.put("NULL", true);
            case SS -> v.ss().forEach(n.putArray("SS")::add);
            case NS -> v.ns().forEach(n.putArray("NS")::add);
            case BS -> {
                ArrayNode a = n.putArray("BS");
                v.bs().forEach(b -> a.add(base64(b)));
            }
            case L -> {
                ArrayNode a = n.putArray("L");
                v.l().forEach(e -> a.add(node(e)));
            }
            case M -> {
                ObjectNode m = n.putObject("M");
                v.m().forEach((k, e) -> m.set(k, node(e)));
            }
            default -> throw new IllegalArgumentException("an attribute value without a type: " + v);
        }
        return n;
    }

    private static AttributeValue value(JsonNode n) {
        var field = n.properties().iterator().next();
        JsonNode x = field.getValue();
        return switch (field.getKey()) {
            case "S" -> AttributeValue.fromS(x.asText());
            case "N" -> AttributeValue.fromN(x.asText());
            case "B" -> AttributeValue.fromB(bytes(x.asText()));
            case "BOOL" -> AttributeValue.fromBool(x.asBoolean());
            case "NULL" -> AttributeValue.fromNul(true);
            case "SS" -> AttributeValue.fromSs(texts(x));
            case "NS" -> AttributeValue.fromNs(texts(x));
            case "BS" ->
                AttributeValue.fromBs(
                        texts(x).stream().map(AttributeValues::bytes).toList());
            case "L" -> {
                List<AttributeValue> list = new java.util.ArrayList<>();
                x.forEach(e -> list.add(value(e)));
                yield AttributeValue.fromL(list);
            }
            case "M" -> {
                Map<String, AttributeValue> map = new LinkedHashMap<>();
                x.properties().forEach(e -> map.put(e.getKey(), value(e.getValue())));
                yield AttributeValue.fromM(map);
            }
            default -> throw new IllegalStateException("unknown DynamoDB JSON type " + field.getKey());
        };
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new java.util.ArrayList<>();
        array.forEach(e -> out.add(e.asText()));
        return out;
    }

    private static String base64(SdkBytes b) {
        return Base64.getEncoder().encodeToString(b.asByteArray());
    }

    private static SdkBytes bytes(String base64) {
        return SdkBytes.fromByteArray(Base64.getDecoder().decode(base64));
    }

    /**
     * A key attribute as the text of its column: type letter and canonical value, so {@code 1}
     * and {@code 1.0} are the same number, as they are in DynamoDB.
     */
    static String keyText(AttributeValue v) {
        return switch (v.type()) {
            case S -> "S" + v.s();
            case N -> "N" + new BigDecimal(v.n()).stripTrailingZeros().toPlainString();
            case B -> "B" + base64(v.b());
            default -> throw new IllegalArgumentException("a key is a string, number or binary: " + v);
        };
    }

    /** Whether {@code a} equals {@code b} as DynamoDB's {@code =} sees them. */
    static boolean same(AttributeValue a, AttributeValue b) {
        if (a == null || b == null || a.type() != b.type()) {
            return false;
        }
        return switch (a.type()) {
            case N -> new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())) == 0;
            case NS -> numbers(a.ns()).equals(numbers(b.ns()));
            case SS -> new HashSet<>(a.ss()).equals(new HashSet<>(b.ss()));
            case BS -> new HashSet<>(a.bs()).equals(new HashSet<>(b.bs()));
            case L ->
                a.l().size() == b.l().size()
                        && java.util.stream.IntStream.range(0, a.l().size())
                                .allMatch(i -> same(a.l().get(i), b.l().get(i)));
            case M ->
                a.m().keySet().equals(b.m().keySet())
                        && a.m().keySet().stream().allMatch(k -> same(a.m().get(k), b.m().get(k)));
            default -> a.equals(b);
        };
    }

    private static java.util.Set<BigDecimal> numbers(List<String> ns) {
        java.util.Set<BigDecimal> out = new HashSet<>();
        ns.forEach(n -> out.add(new BigDecimal(n).stripTrailingZeros()));
        return out;
    }

    /**
     * The order of two scalars of one type (S, N or B); empty when they cannot be ordered (other
     * types, or types that differ): then {@code <}, {@code <=}, {@code >}, {@code >=} and
     * {@code BETWEEN} are false.
     */
    static Optional<Integer> order(AttributeValue a, AttributeValue b) {
        if (a == null || b == null || a.type() != b.type()) {
            return Optional.empty();
        }
        return switch (a.type()) {
            case N -> Optional.of(new BigDecimal(a.n()).compareTo(new BigDecimal(b.n())));
            case S -> Optional.of(Arrays.compareUnsigned(utf8(a.s()), utf8(b.s())));
            case B -> Optional.of(Arrays.compareUnsigned(a.b().asByteArray(), b.b().asByteArray()));
            default -> Optional.empty();
        };
    }

    /** Key order: {@link #order} for key values, which are always one type. */
    static int compareKeys(AttributeValue a, AttributeValue b) {
        return order(a, b).orElseThrow(() -> new IllegalArgumentException("keys of different types: " + a + ", " + b));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
}
