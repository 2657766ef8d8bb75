package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.trainplane.spec.RunSpecs;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every pod a run creates is confined beyond the baseline its namespace enforces. */
class PodSecurityTest {
    static WorkloadManifests manifests(String launcher) {
        return new WorkloadManifests(RunSpecs.parse("{\"runId\": \"r1\", \"cluster\": {\"mode\": \"create\","
                + " \"nodeGroup\": {\"instanceType\": \"g5.2xlarge\", \"nodes\": 2, \"gpusPerNode\": 1}},"
                + " \"training\": {\"workers\": 2, \"gpusPerWorker\": 1, \"launcher\": \"" + launcher + "\"}"
                + (launcher.equals("mpijob") ? ", \"workload\": {\"image\": \"horovod/horovod:0.28.1\"}" : "")
                + "}"));
    }

    static Stream<Container> containers(PodSpec pod) {
        return Stream.concat(
                pod.getInitContainers() == null ? Stream.empty() : pod.getInitContainers().stream(),
                pod.getContainers().stream());
    }

    static void assertConfined(PodSpec pod, boolean capabilitiesDropped) {
        assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        if (pod.getServiceAccountName() == null) {
            assertThat(pod.getAutomountServiceAccountToken()).isFalse();
        }
        containers(pod).forEach(c -> {
            assertThat(c.getSecurityContext().getAllowPrivilegeEscalation())
                    .as(c.getName())
                    .isFalse();
            assertThat(
                            c.getSecurityContext().getCapabilities() == null
                                    ? List.of()
                                    : c.getSecurityContext().getCapabilities().getDrop())
                    .as(c.getName())
                    .isEqualTo(capabilitiesDropped ? List.of("ALL") : List.of());
        });
    }

    @Test
    void theNamespaceEnforcesBaselineAndEveryJobsPodsAreConfined() {
        var m = manifests("indexed-job");
        assertThat(m.namespace().getMetadata().getLabels())
                .containsEntry("pod-security.kubernetes.io/enforce", "baseline")
                .containsEntry("trainplane/run-id", "r1");
        for (var job : List.of(m.trainingJob(), m.dataJob(), m.evaluationJob(), m.outputsJob())) {
            assertConfined(job.getSpec().getTemplate().getSpec(), true);
        }
        assertConfined(m.imagePrepull().getSpec().getTemplate().getSpec(), true);
        // The data job needs no identity: no token.
        assertThat(m.dataJob().getSpec().getTemplate().getSpec().getAutomountServiceAccountToken())
                .isFalse();
    }

    @Test
    void pyTorchJobReplicasAreConfinedAndMpiJobsKeepTheCapabilitiesSshdNeeds() {
        manifests("pytorchjob")
                .pyTorchJob()
                .getSpec()
                .getPytorchReplicaSpecs()
                .values()
                .forEach(r -> assertConfined(r.getTemplate().getSpec(), true));
        manifests("mpijob")
                .mpiJob()
                .getSpec()
                .getMpiReplicaSpecs()
                .values()
                .forEach(r -> assertConfined(r.getTemplate().getSpec(), false));
    }
}
