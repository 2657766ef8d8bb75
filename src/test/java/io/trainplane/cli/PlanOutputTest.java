package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** What {@code plan} prints for people: complete, each Job summarized, the manifests behind --output json. */
class PlanOutputTest {
    /**
     * The plan as a user's terminal gets it: picocli's own standard output is a buffered writer
     * that flushes on println only, and main exits right after the command. The bytes are read
     * without flushing, as System.exit leaves them.
     */
    static String planAsPrinted(String... args) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintWriter out =
                new PrintWriter(new BufferedWriter(new OutputStreamWriter(bytes, StandardCharsets.UTF_8)), true);
        String[] command = new String[args.length + 1];
        command[0] = "plan";
        System.arraycopy(args, 0, command, 1, args.length);
        int exit = Main.commandLine()
                .setOut(out)
                .setErr(new PrintWriter(new java.io.StringWriter(), true))
                .execute(command);
        assertThat(exit).isZero();
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void theTextPlanIsCompleteToItsLastJobAndItsEndLine() {
        for (String example : new String[] {"quickstart", "existing-cluster", "multi-node-efa", "spot-diversified"}) {
            String text = planAsPrinted("examples/" + example + ".json");
            assertThat(text)
                    .as(example)
                    .contains("-outputs: 1 pod", "container outputs: image")
                    .endsWith("their full manifests: trainplane plan --output yaml (or json) examples/" + example
                            + ".json" + System.lineSeparator());
        }
    }

    @Test
    void theJsonPlanIsCompleteToItsLastManifest() {
        String json = planAsPrinted("examples/quickstart.json", "--output", "json");
        var plan = io.trainplane.core.Json.read(json);
        var last = plan.path("kubernetes").get(plan.path("kubernetes").size() - 1);
        assertThat(last.at("/metadata/name").asText()).isEqualTo("tp-quickstart-outputs");
        assertThat(last.at("/spec/template/spec/containers/0/command")).isNotEmpty();
    }

    @Test
    void theYamlPlanIsTheJsonPlanAsYaml() throws Exception {
        String yaml = planAsPrinted("examples/quickstart.json", "--output", "yaml");
        assertThat(yaml).startsWith("---").contains("kind: Job", "kind: ConfigMap");
        var fromYaml = new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml);
        var fromJson = io.trainplane.core.Json.read(planAsPrinted("examples/quickstart.json", "--output", "json"));
        assertThat(fromYaml).isEqualTo(fromJson);
    }

    @Test
    void eachJobIsSummarizedAndTheScriptsAreNamedNotPrinted() {
        String text = planAsPrinted("examples/quickstart.json");
        assertThat(text)
                .contains(
                        "Job tp-quickstart-train: 2 pods (Indexed), deadline 14400 s",
                        "nodes: trainplane.io/node-pool=workers",
                        "container trainer: image pytorch/pytorch:",
                        "command: torchrun --nnodes=2 --nproc-per-node=1",
                        "resources: requests cpu 6, memory 12Gi; limits memory 12Gi",
                        "sidecar checkpoint-sync: image",
                        "command: /bin/sh -c <script of ",
                        "ConfigMap tp-quickstart-scripts: prepare.py (",
                        "train.py (")
                // the scripts' code itself stays in the manifests (--output json)
                .doesNotContain("import torch", "def ", "apiVersion:");
        assertThat(text.lines().count()).isLessThan(120);
    }
}
