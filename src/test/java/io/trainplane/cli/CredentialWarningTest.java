package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.RunPrices;
import io.trainplane.spec.RunSpecs;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;

/** validate and plan warn of a command's variable that looks like a credential: the spec is not the place for it. */
class CredentialWarningTest {
    static final String SPEC =
            """
            {"runId": "r1", "cluster": {"mode": "existing", "name": "c"},
             "workload": {"code": "image", "image": "123456789012.dkr.ecr.us-east-1.amazonaws.com/mine:1",
               "commands": {"train": {"args": ["python", "/app/train.py"],
                 "env": {"HF_TOKEN": "hf_x", "WANDB_API_KEY": "k", "OMP_NUM_THREADS": "4"}}}}}""";

    @Test
    void aCredentialLookingVariableIsWarnedOfAndAnOrdinaryOneIsNot() {
        var warnings = SpecWarnings.of(
                RunSpecs.parse(SPEC),
                LocalDate.parse("2026-11-28"),
                RunPrices.forRegion(io.trainplane.aws.RunPrices.DEFAULT_REGION));
        assertThat(warnings)
                .filteredOn(w -> w.contains("looks like a credential"))
                .hasSize(2)
                .anySatisfy(w -> assertThat(w).startsWith("workload.commands.train.env.HF_TOKEN"))
                .anySatisfy(w -> assertThat(w).startsWith("workload.commands.train.env.WANDB_API_KEY"))
                .allSatisfy(w -> assertThat(w).contains("run record", "Run Started", "execution's input"))
                .noneSatisfy(w -> assertThat(w).contains("hf_x"));
        assertThat(warnings).noneMatch(w -> w.contains("OMP_NUM_THREADS"));
    }
}
