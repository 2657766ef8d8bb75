package io.trainplane.aws.ec2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.trainplane.Prerequisite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CloudFormation resource schemas (the ones Cloud Control validates a desired state against),
 * taken from the copy cfn-lint ships: a peer check of the desired states. Skips the calling test
 * when cfn-lint is not installed.
 */
final class CfnSchemas {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private final Path schemas;

    private CfnSchemas(Path schemas) {
        this.schemas = schemas;
    }

    static CfnSchemas fromCfnLint() throws IOException, InterruptedException {
        Path dir = null;
        try {
            Process python = new ProcessBuilder(
                            "python3", "-c", "import cfnlint, os; print(os.path.dirname(cfnlint.__file__))")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(python.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (python.waitFor(30, TimeUnit.SECONDS) && python.exitValue() == 0) {
                dir = Path.of(out, "data", "schemas");
            }
        } catch (IOException noPython) {
            // skipped below
        }
        Prerequisite.require(
                dir != null && Files.isDirectory(dir),
                "cfn-lint not installed for python3 (pip install cfn-lint): its CloudFormation schemas are needed");
        return new CfnSchemas(dir);
    }

    /** The problems of {@code desiredState} as a {@code typeName} resource; empty when valid. */
    Set<ValidationMessage> validate(String typeName, JsonNode desiredState) throws IOException {
        String providers = Files.readString(schemas.resolve("providers").resolve("us_east_1.py"));
        Matcher hash = Pattern.compile("\"" + Pattern.quote(typeName) + "\": \"([0-9a-f]+)\"")
                .matcher(providers);
        if (!hash.find()) {
            throw new IllegalStateException("cfn-lint has no schema for " + typeName);
        }
        ObjectNode schema = (ObjectNode) MAPPER.readTree(
                schemas.resolve("resources").resolve(hash.group(1) + ".json").toFile());
        schema.remove("$schema"); // the provider meta-schema: validate as plain draft 7
        return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V7)
                .getSchema(schema)
                .validate(desiredState);
    }
}
