package io.trainplane.aws.ec2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.Prerequisite;
import io.trainplane.aws.MotoServer;
import io.trainplane.core.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The committed EC2 instance catalog is what {@code scripts/refresh-ec2-catalog.py} makes of the
 * EC2 APIs' answers: run against moto_server (whose DescribeInstanceTypes and
 * DescribeInstanceTypeOfferings answer from AWS's own recorded answers), it writes the same types,
 * facts and Regions, and so does the twin's own copy of the answers. So the script reads the APIs'
 * shapes right, and neither the snapshot nor the twin's copy was edited by hand.
 */
class Ec2CatalogMotoTest {
    @RegisterExtension
    static final MotoServer MOTO = new MotoServer();

    @Test
    void theRefreshScriptWritesTheCommittedCatalogFromTheApis() throws Exception {
        Path out = Files.createTempFile("instance-types", ".json");
        Path log = Files.createTempFile("refresh", ".log");
        try {
            ProcessBuilder refresh = new ProcessBuilder(
                            "python3",
                            "scripts/refresh-ec2-catalog.py",
                            "--endpoint-url",
                            MOTO.endpoint().toString(),
                            "--out",
                            out.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            refresh.environment().put("AWS_ACCESS_KEY_ID", "testing");
            refresh.environment().put("AWS_SECRET_ACCESS_KEY", "testing");
            Process process;
            try {
                process = refresh.start();
            } catch (IOException e) {
                throw Prerequisite.missing("python3 is not on the PATH: the catalog refresh cannot be checked");
            }
            if (!process.waitFor(300, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("scripts/refresh-ec2-catalog.py did not finish in 300 s");
            }
            String output = Files.readString(log, StandardCharsets.UTF_8);
            Prerequisite.require(
                    !output.contains("No module named 'boto3'"),
                    "boto3 is not installed for python3: the catalog refresh cannot be checked");
            assertThat(process.exitValue()).as(output).isZero();

            JsonNode refreshed = Json.read(Files.readString(out));
            JsonNode committed;
            try (var in = getClass().getResourceAsStream("/ec2/instance-types.json")) {
                committed = Json.read(in);
            }
            assertThat(refreshed.path("instanceTypes")).isEqualTo(committed.path("instanceTypes"));
            assertThat(refreshed.path("regions")).isEqualTo(committed.path("regions"));
            assertThat(refreshed.path("instanceTypes").size()).isGreaterThan(150);
            // The twin's own copy (local/sim Ec2InstanceFacts) holds the same answers.
            JsonNode twin;
            try (var in = getClass().getResourceAsStream("/io/trainplane/local/sim/ec2-instance-types.json")) {
                twin = Json.read(in);
            }
            assertThat(refreshed.path("instanceTypes")).isEqualTo(twin.path("instanceTypes"));
            assertThat(refreshed.path("regions")).isEqualTo(twin.path("regions"));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(log);
        }
    }
}
