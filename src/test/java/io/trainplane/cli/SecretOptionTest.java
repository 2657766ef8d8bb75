package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.core.Json;
import io.trainplane.local.process.ProcessSecretsTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code trainplane run --secret NAME=FILE}: the file's content is the local account's secret and
 * SSM parameter NAME for the run, which the spec's references read (without it, fetch-secrets
 * fails the run); neither value is printed. A file that cannot be read is the user's mistake, before
 * anything runs.
 */
class SecretOptionTest {
    @TempDir
    Path dir;

    @Test
    void aLocalRunReadsTheSecretsGivenOnTheCommandLineAndPrintsNoValue() throws Exception {
        Path token = Files.writeString(dir.resolve("token"), ProcessSecretsTest.TOKEN + "\n");
        Path password = Files.writeString(dir.resolve("password"), ProcessSecretsTest.PASSWORD);
        Path spec = Files.writeString(
                dir.resolve("spec.json"),
                Json.write(ProcessSecretsTest.spec(
                        "secret-option",
                        "arn:aws:secretsmanager:us-east-1:000000000000:secret:trainplane/hf-token",
                        "trainplane/db-password")));

        CliTest.Result without = CliTest.cli("run", spec.toString(), "--no-store", "--output", "json");
        assertThat(without.exit()).as(without.out() + without.err()).isEqualTo(Main.FAILED);
        assertThat(without.out()).contains("\"error\":\"SecretFetchFailed\"");

        CliTest.Result r = CliTest.cli(
                "run",
                spec.toString(),
                "--secret",
                "trainplane/hf-token=" + token,
                "--secret",
                "trainplane/db-password=" + password,
                "--no-store",
                "--output",
                "json");

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("\"status\":\"SUCCEEDED\"");
        assertThat(r.out() + r.err()).doesNotContain(ProcessSecretsTest.TOKEN, ProcessSecretsTest.PASSWORD);
    }

    @Test
    void aSecretFileThatCannotBeReadIsRefusedWithExit2() throws Exception {
        Path spec = Files.writeString(
                dir.resolve("spec.json"),
                Json.write(ProcessSecretsTest.spec(
                        "secret-missing",
                        "arn:aws:secretsmanager:us-east-1:000000000000:secret:trainplane/hf-token",
                        "trainplane/db-password")));

        CliTest.Result r = CliTest.cli(
                "run", spec.toString(), "--secret", "trainplane/hf-token=" + dir.resolve("absent"), "--no-store");

        assertThat(r.exit()).isEqualTo(Main.INVALID_INPUT);
        assertThat(r.err()).contains("--secret trainplane/hf-token=", "cannot read");
    }
}
