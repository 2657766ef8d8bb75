package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.core.Json;
import org.junit.jupiter.api.Test;

/**
 * Defaults of the branches of the schema, including those of features this version refuses, so
 * they are right the day the refusal is lifted.
 */
class SchemaDefaultsTest {
    private static final SpecSchema SCHEMA = SpecSchema.get();

    @Test
    void createModeGetsTheNodeGroupDefaultsAndNoKubernetesVersion() throws Exception {
        ObjectNode document = withDefaults(
                """
                {"cluster": {"mode": "create", "nodeGroup": {"instanceType": "g5.12xlarge", "nodes": 2}}}""");

        // The version's default is not the schema's: it comes from EKS's calendar on the run's day (RunSpecs).
        assertThat(document.at("/cluster/kubernetesVersion").isMissingNode()).isTrue();
        assertThat(document.at("/cluster/nodeGroup").toString())
                .isEqualTo("{\"instanceType\":\"g5.12xlarge\",\"nodes\":2,\"gpusPerNode\":0,"
                        + "\"capacityType\":\"ON_DEMAND\",\"efa\":false}");
    }

    @Test
    void existingModeGetsNoCreateOnlyDefaults() throws Exception {
        ObjectNode document = withDefaults("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}}");

        assertThat(document.get("cluster").toString()).isEqualTo("{\"mode\":\"existing\",\"name\":\"c\"}");
    }

    @Test
    void syntheticSamplesDefaultOnlyForSyntheticData() throws Exception {
        ObjectNode synthetic = withDefaults("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}}");
        ObjectNode url = withDefaults("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"data\": {\"source\": "
                + "\"url\", \"url\": \"https://example.com/d.tgz\", \"sha256\": \"" + "0".repeat(64) + "\"}}");

        assertThat(synthetic.at("/data/syntheticSamples").asInt()).isEqualTo(2000);
        assertThat(url.at("/data").has("syntheticSamples")).isFalse();
    }

    @Test
    void normalizedFormOfEveryModeIsValidAgainstTheSchema() throws Exception {
        for (String json : new String[] {
            "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"p4d.24xlarge\", \"nodes\": 1,"
                    + " \"gpusPerNode\": 8, \"capacityType\": \"CAPACITY_BLOCK\","
                    + " \"capacityReservationId\": \"cr-0123456789abcdef0\", \"efa\": true}},"
                    + " \"volume\": {\"type\": \"efs\"}, \"training\": {\"launcher\": \"pytorchjob\"}}",
            "{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"volume\": {\"type\": \"efs\","
                    + " \"fileSystemId\": \"fs-0123456789abcdef0\"}, \"data\": {\"source\": \"s3\","
                    + " \"s3Uri\": \"s3://bucket/key\"}}"
        }) {
            ObjectNode document = withDefaults(json);
            RunSpec spec = Json.strictMapper().treeToValue(document, RunSpec.class);

            assertThat(SCHEMA.validate(spec.toJson())).isEmpty();
            assertThat(Json.strictMapper().treeToValue(spec.toJson(), RunSpec.class))
                    .isEqualTo(spec);
        }
    }

    private static ObjectNode withDefaults(String json) throws Exception {
        ObjectNode document = (ObjectNode) Json.strictMapper().readTree(json);
        assertThat(SCHEMA.validate(document)).as("test spec is valid").isEmpty();
        SchemaDefaults.apply(SCHEMA, document);
        return document;
    }
}
