package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.jayway.jsonpath.Configuration;
import com.jayway.jsonpath.JsonPath;
import com.jayway.jsonpath.PathNotFoundException;
import com.jayway.jsonpath.spi.json.JacksonJsonNodeJsonProvider;
import com.jayway.jsonpath.spi.mapper.JacksonMappingProvider;
import io.trainplane.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A JSONPath in the subset the local executor implements: {@code $} followed by {@code .field},
 * {@code ['field']} and {@code [index]} segments, so every path names at most one node. A leading
 * {@code $$} addresses the context object. Wildcards, filters, slices, unions, deep scans and
 * functions are refused when the definition is loaded. Evaluation is Jayway JsonPath's, the
 * library Step Functions' JSONPath follows (an out-of-range index yields null, as there).
 */
final class JsonPathExpr {
    private static final Configuration JAYWAY = Configuration.builder()
            .jsonProvider(new JacksonJsonNodeJsonProvider(Json.mapper()))
            .mappingProvider(new JacksonMappingProvider(Json.mapper()))
            .build();
    private static final Pattern NAME = Pattern.compile("[\\p{L}\\p{N}_\\-]+");
    static final String SUPPORTED = "supported forms: $, $.field, $['field'], $.field[0]";

    sealed interface Segment permits Field, Index {}

    record Field(String name) implements Segment {}

    record Index(int index) implements Segment {}

    private final String text;
    private final boolean context;
    private final List<Segment> segments;
    private final JsonPath compiled;

    private JsonPathExpr(String text, boolean context, List<Segment> segments) {
        this.text = text;
        this.context = context;
        this.segments = List.copyOf(segments);
        this.compiled = JsonPath.compile(normalized(segments));
    }

    /**
     * Parses a path.
     *
     * @throws IllegalArgumentException saying what is wrong, when the text is not a path of the subset
     */
    static JsonPathExpr parse(String text, boolean allowContext) {
        boolean context = text.startsWith("$$");
        if (context && !allowContext) {
            throw new IllegalArgumentException(
                    "context object paths ($$) are not supported in this field: '" + text + "'");
        }
        if (!text.startsWith("$")) {
            throw new IllegalArgumentException("a path must begin with '$': '" + text + "'");
        }
        int pos = context ? 2 : 1;
        List<Segment> segments = new ArrayList<>();
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (c == '.') {
                int end = pos + 1;
                while (end < text.length() && text.charAt(end) != '.' && text.charAt(end) != '[') {
                    end++;
                }
                String name = text.substring(pos + 1, end);
                if (!NAME.matcher(name).matches()) {
                    throw unsupported(text);
                }
                segments.add(new Field(name));
                pos = end;
            } else if (c == '[') {
                int close = text.indexOf(']', pos);
                if (close < 0) {
                    throw unsupported(text);
                }
                String inside = text.substring(pos + 1, close);
                if (inside.length() >= 2
                        && inside.startsWith("'")
                        && inside.endsWith("'")
                        && inside.indexOf('\'', 1) == inside.length() - 1
                        && inside.indexOf('\\') < 0) {
                    segments.add(new Field(inside.substring(1, inside.length() - 1)));
                } else if (inside.matches("[0-9]{1,9}")) {
                    segments.add(new Index(Integer.parseInt(inside)));
                } else {
                    throw unsupported(text);
                }
                pos = close + 1;
            } else {
                throw unsupported(text);
            }
        }
        return new JsonPathExpr(text, context, segments);
    }

    private static IllegalArgumentException unsupported(String text) {
        return new IllegalArgumentException(
                "JSONPath form not supported by the local executor: '" + text + "' (" + SUPPORTED + ")");
    }

    private static String normalized(List<Segment> segments) {
        StringBuilder out = new StringBuilder("$");
        for (Segment segment : segments) {
            switch (segment) {
                case Field f -> out.append("['").append(f.name()).append("']");
                case Index i -> out.append('[').append(i.index()).append(']');
            }
        }
        return out.toString();
    }

    String text() {
        return text;
    }

    /** True for a {@code $$} path, which reads the context object. */
    boolean isContext() {
        return context;
    }

    List<Segment> segments() {
        return segments;
    }

    boolean isRoot() {
        return segments.isEmpty();
    }

    /** The node the path names in {@code document}, or empty when there is none. */
    Optional<JsonNode> read(JsonNode document) {
        try {
            Object value = JsonPath.using(JAYWAY).parse(document).read(compiled);
            return Optional.of(value == null ? Json.NODES.nullNode() : (JsonNode) value);
        } catch (PathNotFoundException e) {
            return Optional.empty();
        }
    }

    /** Reads against the input, or against the context object for a {@code $$} path. */
    Optional<JsonNode> read(JsonNode input, JsonNode contextObject) {
        return read(context ? contextObject : input);
    }

    @Override
    public String toString() {
        return text;
    }
}
