package io.trainplane.local.iam;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.trainplane.Prerequisite;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The peer of the engine's SAM transform is AWS's own translator (aws-sam-translator, through
 * scripts/sam-transform.py): its output, resolved with the engine's resolver, must give every
 * role the engine gives, with the same names, ARNs, policy names, documents and managed policies.
 * The template's own roles pass through the translator unchanged, so this also checks the YAML
 * reading (tags, anchors) against the translator's. Without python3 and the translator the test
 * is skipped, except under CI=true, where it fails.
 */
class SamTranslatorPeerTest {
    private static String translated;

    /** template.yaml through the translator, once; skips (or fails under CI=true) without it. */
    static synchronized String translated() throws IOException, InterruptedException {
        if (translated == null) {
            translated = translate();
        }
        return translated;
    }

    private static String translate() throws IOException, InterruptedException {
        Path output = Files.createTempFile("sam-transform", ".json");
        Path errors = Files.createTempFile("sam-transform", ".err");
        try {
            Process process;
            try {
                process = new ProcessBuilder("python3", "scripts/sam-transform.py", "template.yaml")
                        .redirectOutput(output.toFile())
                        .redirectError(errors.toFile())
                        .start();
            } catch (IOException e) {
                throw unavailable("python3 is not on the PATH");
            }
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("scripts/sam-transform.py did not finish in 120 s");
            }
            String stderr = Files.readString(errors, StandardCharsets.UTF_8);
            if (process.exitValue() == 3) {
                throw unavailable(stderr.strip());
            }
            assertThat(process.exitValue())
                    .as("scripts/sam-transform.py: " + stderr)
                    .isZero();
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(output);
            Files.deleteIfExists(errors);
        }
    }

    static RuntimeException unavailable(String why) {
        return Prerequisite.missing(
                why + ": the SAM translator peer check cannot run (install aws-sam-translator for python3)");
    }

    static List<Map<String, String>> parameterSets() {
        return List.of(
                Map.of(),
                Map.of(
                        "RetrainingSchedule",
                        "rate(1 day)",
                        "ExistingClusterNamePrefix",
                        "warm-",
                        "ClusterSecurityGroupIds",
                        "sg-1"));
    }

    @ParameterizedTest(name = "parameters {0}")
    @MethodSource("parameterSets")
    void theTranslatorsRolesResolveToTheEnginesRoles(Map<String, String> overrides)
            throws IOException, InterruptedException {
        Map<String, String> values = new LinkedHashMap<>(StackTemplate.LOCAL_PARAMETERS);
        values.putAll(overrides);
        StackTemplate engine = StackTemplate.local(overrides);
        StackTemplate translator =
                StackTemplate.parse(translated(), "aws-sam-translator output", LocalAccount.LOCAL, values);

        assertThat(engine.roles().keySet())
                .containsExactlyInAnyOrderElementsOf(translator.roles().keySet());
        assertThat(engine.roles()).containsKeys("TrainingPipelineRole", "CleanupRole");
        for (Role theirs : translator.roles().values()) {
            Role ours = engine.roles().get(theirs.logicalId());
            assertThat(ours.arn()).as(theirs.logicalId()).isEqualTo(theirs.arn());
            assertThat(ours.policies()).as(theirs.logicalId() + " policies").hasSameSizeAs(theirs.policies());
            for (int i = 0; i < theirs.policies().size(); i++) {
                RolePolicy want = theirs.policies().get(i);
                RolePolicy got = ours.policies().get(i);
                String what = theirs.logicalId() + " " + want.name();
                assertThat(got.name()).as(what).isEqualTo(want.name());
                assertThat(got.managedArn()).as(what).isEqualTo(want.managedArn());
                assertThat(got.document()).as(what).isEqualTo(want.document());
                assertThat(got.statements())
                        .extracting(PolicyStatement::id)
                        .as(what)
                        .isEqualTo(want.statements().stream()
                                .map(PolicyStatement::id)
                                .toList());
            }
        }
    }
}
