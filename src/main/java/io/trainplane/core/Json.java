package io.trainplane.core;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Map;

/**
 * The project's one JSON helper. Text to Jackson trees and back goes through Jackson's streaming
 * parser and generator, without an ObjectMapper: the Lambda functions only ever need trees, and
 * building an ObjectMapper (its serializer and deserializer factories, type introspection) costs
 * a cold start about 100 ms. The trees are the ones {@code ObjectMapper.readTree} gives: ints as
 * {@code IntNode} (or {@code LongNode}, {@code BigIntegerNode}), fractions as {@code DoubleNode},
 * the last of duplicate keys kept, empty input as {@code MissingNode}. The mappers, for the code
 * that maps objects (specs, the CLI, local mode), are built on first use.
 */
public final class Json {
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final JsonFactory FACTORY = new JsonFactory();

    private Json() {}

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    public static ArrayNode array() {
        return NODES.arrayNode();
    }

    /** The metrics {@code values} as an object of numbers. */
    public static ObjectNode numbers(Map<String, Double> values) {
        ObjectNode node = object();
        values.forEach(node::put);
        return node;
    }

    /** A required text field of a step's input; a missing one is a bug in the state machine. */
    public static String text(JsonNode input, String field) {
        JsonNode value = input.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            throw new IllegalArgumentException("step input has no '" + field + "': " + input);
        }
        return value.asText();
    }

    /** The JSON type names AWS uses in messages. */
    public static String typeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT -> "object";
            case ARRAY -> "array";
            case STRING -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "boolean";
            case NULL -> "null";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** A plain ObjectMapper, for the code that maps objects; the Lambda functions never ask for it. */
    public static ObjectMapper mapper() {
        return Mappers.PLAIN;
    }

    /**
     * The strict mapper (specs, state machine definitions): a duplicate key or text after the
     * document is an error, not silently ignored; null fields are left out when writing, so a
     * normalized spec has no nulls.
     */
    public static JsonMapper strictMapper() {
        return Mappers.STRICT;
    }

    public static JsonNode read(String json) {
        try (JsonParser parser = FACTORY.createParser(json)) {
            return read(parser);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @throws IOException when the stream fails or does not hold JSON */
    public static JsonNode read(InputStream in) throws IOException {
        try (JsonParser parser = FACTORY.createParser(in)) {
            return read(parser);
        }
    }

    public static String write(JsonNode node) {
        StringWriter out = new StringWriter();
        try (JsonGenerator generator = FACTORY.createGenerator(out)) {
            write(node, generator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    /** Writes {@code node} to {@code out}, leaving {@code out} open. */
    public static void write(JsonNode node, OutputStream out) throws IOException {
        try (JsonGenerator generator = FACTORY.createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)) {
            write(node, generator);
        }
    }

    private static final class Mappers {
        static final ObjectMapper PLAIN = new ObjectMapper();
        static final JsonMapper STRICT = JsonMapper.builder()
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .defaultPropertyInclusion(
                        JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
                .build();
    }

    private static JsonNode read(JsonParser parser) throws IOException {
        return parser.nextToken() == null ? MissingNode.getInstance() : value(parser);
    }

    private static JsonNode value(JsonParser parser) throws IOException {
        return switch (parser.currentToken()) {
            case START_OBJECT -> {
                ObjectNode object = NODES.objectNode();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String name = parser.currentName();
                    parser.nextToken();
                    object.set(name, value(parser));
                }
                yield object;
            }
            case START_ARRAY -> {
                ArrayNode array = NODES.arrayNode();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(parser));
                }
                yield array;
            }
            case VALUE_STRING -> NODES.textNode(parser.getText());
            case VALUE_NUMBER_INT ->
                switch (parser.getNumberType()) {
                    case INT -> NODES.numberNode(parser.getIntValue());
                    case LONG -> NODES.numberNode(parser.getLongValue());
                    default -> NODES.numberNode(parser.getBigIntegerValue());
                };
            case VALUE_NUMBER_FLOAT -> NODES.numberNode(parser.getDoubleValue());
            case VALUE_TRUE -> NODES.booleanNode(true);
            case VALUE_FALSE -> NODES.booleanNode(false);
            case VALUE_NULL -> NODES.nullNode();
            default -> throw new IOException("unexpected JSON token " + parser.currentToken());
        };
    }

    private static void write(JsonNode node, JsonGenerator out) throws IOException {
        switch (node.getNodeType()) {
            case OBJECT -> {
                out.writeStartObject();
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    out.writeFieldName(field.getKey());
                    write(field.getValue(), out);
                }
                out.writeEndObject();
            }
            case ARRAY -> {
                out.writeStartArray();
                for (JsonNode element : node) {
                    write(element, out);
                }
                out.writeEndArray();
            }
            case STRING -> out.writeString(node.textValue());
            case NUMBER -> {
                switch (node.numberType()) {
                    case INT -> out.writeNumber(node.intValue());
                    case LONG -> out.writeNumber(node.longValue());
                    case BIG_INTEGER -> out.writeNumber(node.bigIntegerValue());
                    case FLOAT -> out.writeNumber(node.floatValue());
                    case DOUBLE -> out.writeNumber(node.doubleValue());
                    case BIG_DECIMAL -> out.writeNumber(node.decimalValue());
                }
            }
            case BOOLEAN -> out.writeBoolean(node.booleanValue());
            case NULL, MISSING -> out.writeNull();
            default -> throw new IllegalArgumentException("not plain JSON: a " + node.getNodeType() + " node");
        }
    }
}
