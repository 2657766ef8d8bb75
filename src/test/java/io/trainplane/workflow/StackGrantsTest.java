package io.trainplane.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.aws.Settings;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.SpecProblem;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What StartRun refuses because the stack's parameters do not grant it, before anything is created. */
class StackGrantsTest {
    static Settings stack(String existingPrefix, String lustreBuckets) {
        return Settings.fromMap(Map.of(
                "STACK_NAME", "trainplane",
                "RUNS_TABLE", "runs",
                "CLUSTER_SUBNET_IDS", "subnet-1,subnet-2",
                "EXISTING_CLUSTER_NAME_PREFIX", existingPrefix,
                "LUSTRE_DATA_BUCKETS", lustreBuckets));
    }

    static String existing(String name) {
        return "{\"cluster\": {\"mode\": \"existing\", \"name\": \"" + name + "\"}}";
    }

    @Test
    void anotherRunsClusterIsNeverUsedAsAnExistingOne() {
        assertThat(StackGrants.problems(RunSpecs.parse(existing("tp-nightly-eks")), stack("", "")))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/name");
                    assertThat(p.message()).contains("belongs to another run");
                });
    }

    @Test
    void anExistingClusterOutsideTheStacksPrefixIsRefusedNamingTheParameter() {
        assertThat(StackGrants.problems(RunSpecs.parse(existing("prod-cluster")), stack("ml-", "")))
                .extracting(SpecProblem::message)
                .singleElement()
                .asString()
                .contains("does not start with 'ml-', the stack's ExistingClusterNamePrefix");
        assertThat(StackGrants.problems(RunSpecs.parse(existing("ml-shared")), stack("ml-", "")))
                .isEmpty();
        assertThat(StackGrants.problems(RunSpecs.parse(existing("anything")), stack("", "")))
                .isEmpty();
    }
}
