package io.trainplane.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.trainplane.NpmPeer;
import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubeflow CRDs of {@code ../shared/kubeflow/} (DESIGN.md §7, the folder's README) as JSON
 * Schemas: each served version's {@code schema.openAPIV3Schema}, checked with networknt as a
 * Kubernetes API server checks a custom resource.
 *
 * <p>A CRD's schema is OpenAPI v3.0 with Kubernetes' extensions, not plain JSON Schema; {@link
 * #asJsonSchema} translates what would otherwise change the verdict
 * (https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema):
 * <ul>
 *   <li>{@code nullable: true}: null is allowed (JSON Schema: {@code "null"} among the types);
 *   <li>{@code x-kubernetes-int-or-string: true}: an integer or a string;
 *   <li>pruning: a structural schema keeps only the fields it specifies, so a field an object
 *       schema does not list is dropped by the API server (and refused by {@code kubectl}'s strict
 *       field validation): here it is an error ({@code additionalProperties: false}), except under
 *       {@code x-kubernetes-preserve-unknown-fields: true} and where {@code additionalProperties}
 *       is given (maps). The root's {@code apiVersion}, {@code kind} and {@code metadata} are
 *       always kept, as the API server does.
 * </ul>
 * Not checked: {@code x-kubernetes-validations} (CEL rules; the PyTorchJob CRD has one, the
 * immutability of {@code runPolicy.schedulingPolicy.queue}, which concerns updates only),
 * {@code x-kubernetes-list-type} uniqueness, and ObjectMeta's own rules (names as DNS subdomains).
 */
public final class KubeflowCrds {
    public static final Path FOLDER = Path.of("../shared/kubeflow");
    /** The CRDs the project's objects may be of: the training operator's PyTorchJob, the MPI operator's MPIJob. */
    static final List<Path> CRDS = List.of(
            FOLDER.resolve("v1.9.4/kubeflow.org_pytorchjobs.yaml"),
            FOLDER.resolve("mpi-operator-v0.8.2/kubeflow.org_mpijobs.yaml"));

    private static KubeflowCrds loaded;

    /** Schemas by "group/version Kind", e.g. "kubeflow.org/v1 PyTorchJob". */
    private final Map<String, JsonSchema> schemas;

    private KubeflowCrds(Map<String, JsonSchema> schemas) {
        this.schemas = schemas;
    }

    /**
     * The CRDs, read; skips the calling test where {@code ../shared/kubeflow/} is absent (a user's
     * own clone), fails it under {@code CI=true}, where the folder always exists.
     */
    public static synchronized KubeflowCrds loaded() throws IOException {
        if (loaded == null) {
            for (Path crd : CRDS) {
                if (!Files.isRegularFile(crd)) {
                    NpmPeer.unavailable(
                            "the Kubeflow CRD " + crd.toAbsolutePath().normalize()
                                    + " is not there (../shared/kubeflow/ holds the shared reference data):"
                                    + " Kubeflow objects not validated");
                }
            }
            ObjectMapper yaml = new ObjectMapper(new YAMLFactory());
            JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V4);
            Map<String, JsonSchema> schemas = new HashMap<>();
            for (Path file : CRDS) {
                JsonNode crd = yaml.readTree(file.toFile());
                String group = crd.path("spec").path("group").asText();
                String kind = crd.path("spec").path("names").path("kind").asText();
                for (JsonNode version : crd.path("spec").path("versions")) {
                    if (version.path("served").asBoolean()) {
                        JsonNode schema = asJsonSchema(
                                version.path("schema").path("openAPIV3Schema").deepCopy(), true);
                        schemas.put(
                                group + "/" + version.path("name").asText() + " " + kind, factory.getSchema(schema));
                    }
                }
            }
            loaded = new KubeflowCrds(Map.copyOf(schemas));
        }
        return loaded;
    }

    /** The schema for an object's apiVersion and kind, if one of these CRDs serves it. */
    public Optional<JsonSchema> schemaOf(JsonNode object) {
        return Optional.ofNullable(schemas.get(
                object.path("apiVersion").asText() + " " + object.path("kind").asText()));
    }

    /** Whether an object is of a kind these CRDs define. */
    public boolean defines(JsonNode object) {
        return schemaOf(object).isPresent();
    }

    /** What the CRD's schema finds wrong with the object (empty when valid); the object must be of a kind it defines. */
    public List<String> validate(JsonNode object) {
        JsonSchema schema = schemaOf(object)
                .orElseThrow(() -> new IllegalArgumentException(
                        "no Kubeflow CRD defines " + object.path("apiVersion").asText() + " "
                                + object.path("kind").asText()));
        return schema.validate(object).stream()
                .map(ValidationMessage::getMessage)
                .sorted()
                .toList();
    }

    /** An OpenAPI v3 structural schema as the JSON Schema (draft 4) that judges the same; see the class comment. */
    static JsonNode asJsonSchema(JsonNode node, boolean root) {
        if (node instanceof ArrayNode array) {
            array.forEach(item -> asJsonSchema(item, false));
            return array;
        }
        if (!(node instanceof ObjectNode schema)) {
            return node;
        }
        // Subschemas first; "properties" holds schemas by field name, the others hold schemas.
        schema.path("properties").forEach(property -> asJsonSchema(property, false));
        for (String keyword : List.of("items", "additionalProperties", "allOf", "anyOf", "oneOf", "not")) {
            if (schema.has(keyword)) {
                asJsonSchema(schema.get(keyword), false);
            }
        }
        if (schema.path("nullable").asBoolean() && schema.has("type")) {
            ArrayNode types = Json.array().add(schema.get("type").asText()).add("null");
            schema.set("type", types);
        }
        if (schema.path("x-kubernetes-int-or-string").asBoolean() && !schema.has("anyOf")) {
            schema.set(
                    "anyOf",
                    Json.array()
                            .add(Json.object().put("type", "integer"))
                            .add(Json.object().put("type", "string")));
        }
        boolean preserves = schema.path("x-kubernetes-preserve-unknown-fields").asBoolean();
        if (schema.has("properties") && !schema.has("additionalProperties") && !preserves) {
            if (root) {
                ObjectNode properties = (ObjectNode) schema.get("properties");
                for (String kept : List.of("apiVersion", "kind", "metadata")) {
                    if (!properties.has(kept)) {
                        properties.set(kept, Json.object());
                    }
                }
            }
            schema.put("additionalProperties", false);
        }
        return schema;
    }
}
