package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Writes the schema's {@code default}s into a spec, so defaults live in one place: the schema.
 * An absent property with a default gets it (a section's default is {@code {}}, whose own
 * properties are then filled in); an {@code if}/{@code then}/{@code else} contributes the
 * defaults of the branch the spec takes, judged after the plain defaults are in.
 */
final class SchemaDefaults {
    private SchemaDefaults() {}

    /** Fills {@code document} in place; it must already be valid against the schema. */
    static void apply(SpecSchema schema, ObjectNode document) {
        apply(schema, schema.root(), document);
    }

    private static void apply(SpecSchema schema, JsonNode schemaNode, ObjectNode instance) {
        for (Map.Entry<String, JsonNode> property :
                schemaNode.path("properties").properties()) {
            String name = property.getKey();
            JsonNode propertySchema = property.getValue();
            if (!instance.has(name) && propertySchema.has("default")) {
                instance.set(name, propertySchema.get("default").deepCopy());
            }
            if (instance.get(name) instanceof ObjectNode child) {
                apply(schema, propertySchema, child);
            }
        }
        if (schemaNode.has("if")) {
            JsonNode branch =
                    schema.matches(schemaNode.get("if"), instance) ? schemaNode.get("then") : schemaNode.get("else");
            if (branch != null) {
                apply(schema, branch, instance);
            }
        }
        for (JsonNode part : schemaNode.path("allOf")) {
            apply(schema, part, instance);
        }
    }
}
