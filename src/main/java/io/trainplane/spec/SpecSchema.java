package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.PathType;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/** {@code run-spec.schema.json}, loaded and compiled once. */
final class SpecSchema {
    static final String RESOURCE = "/run-spec.schema.json";

    private static final SpecSchema INSTANCE = load();

    private final JsonNode root;
    private final JsonSchema validator;
    /** Every {@code if} of the schema, compiled, to choose the branch whose defaults apply. */
    private final Map<JsonNode, JsonSchema> conditions = new IdentityHashMap<>();

    private SpecSchema(JsonNode root) {
        this.root = root;
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        SchemaValidatorsConfig config =
                SchemaValidatorsConfig.builder().pathType(PathType.JSON_POINTER).build();
        this.validator = factory.getSchema(root, config);
        compileConditions(factory, config, root);
    }

    static SpecSchema get() {
        return INSTANCE;
    }

    /** The schema document (not a copy: do not modify). */
    JsonNode root() {
        return root;
    }

    /** The schema node at a JSON pointer into the schema; missing node when there is none. */
    JsonNode at(String pointer) {
        return root.at(pointer);
    }

    /** Every violation, not only the first. */
    Set<ValidationMessage> validate(JsonNode document) {
        return validator.validate(document);
    }

    /** Whether {@code instance} satisfies an {@code if} subschema of this schema. */
    boolean matches(JsonNode ifSchema, JsonNode instance) {
        JsonSchema condition = conditions.get(ifSchema);
        if (condition == null) {
            throw new IllegalArgumentException("not an 'if' of the run spec schema: " + ifSchema);
        }
        return condition.validate(instance).isEmpty();
    }

    private void compileConditions(JsonSchemaFactory factory, SchemaValidatorsConfig config, JsonNode node) {
        if (!node.isContainerNode()) {
            return;
        }
        if (node.isObject() && node.has("if")) {
            conditions.put(node.get("if"), factory.getSchema(node.get("if"), config));
        }
        for (JsonNode child : node) {
            compileConditions(factory, config, child);
        }
    }

    private static SpecSchema load() {
        try (InputStream in = SpecSchema.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the classpath");
            }
            return new SpecSchema(Json.strictMapper().readTree(in));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
