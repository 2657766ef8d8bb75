package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The schema itself: well-formed, closed, documented, its defaults and examples valid. */
class SchemaTest {
    private static final JsonNode SCHEMA = RunSpecs.schema();

    @Test
    void schemaIsValidAgainstTheDraft202012MetaSchema() {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        var metaSchema = factory.getSchema(SchemaLocation.of("https://json-schema.org/draft/2020-12/schema"));

        assertThat(metaSchema.validate(SCHEMA)).isEmpty();
    }

    @Test
    void everyObjectIsClosedAndEveryPropertyDescribed() {
        List<String> declarations = new ArrayList<>();
        visitDeclarations(SCHEMA, "", declarations);

        assertThat(declarations).hasSizeGreaterThanOrEqualTo(40);
    }

    @Test
    void everyDefaultAndExampleIsValidForItsProperty() {
        List<String> checked = new ArrayList<>();
        checkValues(SCHEMA, "", checked);

        assertThat(checked).contains("/properties/training/properties/image", "/properties/runId");
    }

    @Test
    void defaultsInsideConditionalBranchesAreValidForTheirDeclaration() {
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
        List<String> checked = new ArrayList<>();
        for (String object : List.of("/properties/cluster", "/properties/data")) {
            for (JsonNode part : SCHEMA.at(object + "/allOf")) {
                for (Map.Entry<String, JsonNode> property :
                        part.path("then").path("properties").properties()) {
                    if (property.getValue().has("default")) {
                        JsonNode declaration = SCHEMA.at(object + "/properties/" + property.getKey());
                        assertThat(factory.getSchema(declaration)
                                        .validate(property.getValue().get("default")))
                                .as(object + "/" + property.getKey())
                                .isEmpty();
                        checked.add(property.getKey());
                    }
                }
            }
        }
        assertThat(checked).containsExactly("syntheticSamples");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime",
                "python",
                "python:3.11",
                "localhost:5000/team/train:v1",
                "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:2024-06-11",
                "public.ecr.aws/x/y@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
            })
    void imagePatternAcceptsCommonReferences(String image) {
        assertThat(image)
                .matches(SCHEMA.at("/properties/training/properties/image/pattern")
                        .asText());
    }

    @ParameterizedTest
    @ValueSource(strings = {"PyTorch/pytorch", "pytorch:", "pytorch pytorch", "/pytorch", "pytorch:tag with space"})
    void imagePatternRefusesBrokenReferences(String image) {
        assertThat(image)
                .doesNotMatch(SCHEMA.at("/properties/training/properties/image/pattern")
                        .asText());
    }

    /** Every object schema has additionalProperties false; every property a description. */
    private static void visitDeclarations(JsonNode node, String path, List<String> seen) {
        // A map (env, hyperparameters) declares its values in additionalProperties and has no properties.
        boolean map = node.path("additionalProperties").isObject() && !node.has("properties");
        if ("object".equals(node.path("type").asText()) && !map) {
            assertThat(node.path("additionalProperties").isBoolean()
                            && !node.get("additionalProperties").asBoolean())
                    .as(path + " is closed")
                    .isTrue();
        }
        for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
            String at = path + "/properties/" + property.getKey();
            seen.add(at);
            assertThat(property.getValue().path("description").asText())
                    .as(at + " has a description")
                    .isNotBlank();
            if (property.getValue().has("pattern")) {
                assertThat(property.getValue().path("patternMeaning").asText())
                        .as(at + " says its pattern in words")
                        .isNotBlank();
                Pattern.compile(property.getValue().get("pattern").asText());
            }
            visitDeclarations(property.getValue(), at, seen);
        }
    }

    /** Defaults and examples must pass their own property's checks (type, bounds, pattern, enum). */
    private static void checkValues(JsonNode node, String path, List<String> checked) {
        for (Map.Entry<String, JsonNode> property : node.path("properties").properties()) {
            String at = path + "/properties/" + property.getKey();
            JsonNode declaration = property.getValue();
            List<JsonNode> values = new ArrayList<>();
            if (declaration.has("default")) {
                values.add(declaration.get("default"));
            }
            declaration.path("examples").forEach(values::add);
            if (!values.isEmpty() && !"object".equals(declaration.path("type").asText())) {
                var validator = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                        .getSchema(declaration);
                for (JsonNode value : values) {
                    assertThat(validator.validate(value))
                            .as(at + " value " + value)
                            .isEmpty();
                }
                checked.add(at);
            }
            checkValues(declaration, at, checked);
        }
    }
}
