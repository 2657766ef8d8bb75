package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.TestTime;
import io.trainplane.core.Json;
import io.trainplane.local.Faults;
import io.trainplane.local.LocalCloud;
import io.trainplane.local.LocalRun;
import io.trainplane.local.RunReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The twin judges with its own facts. With the product's allocatable table made wrong (the EKS AMI
 * reserving nothing, through {@link NodeAllocatable#wrongForTests}), a spec the product now thinks
 * fits a c5.2xlarge is refused by the twin's nodes, whose kubelet reserves what the AMI's nodeadm
 * does (local/sim EksAmiKubelet): were the twin's nodes still built from the product's table, the
 * pods would schedule and the run would succeed. With the product's version calendar made wrong
 * ({@link KubernetesVersions#wrongForTests}), the twin's EKS refuses a version its own calendar
 * (local/sim EksVersionCalendar) has past extended support.
 */
class WrongTableRunTest {
    @AfterEach
    void putTheTablesRight() {
        NodeAllocatable.wrongForTests = false;
        KubernetesVersions.wrongForTests = null;
    }

    static RunOutcome run(ObjectNode spec) {
        try (LocalCloud cloud = new LocalCloud(TestTime.START)) {
            RunReport r = new LocalRun(cloud, Faults.none(), e -> {})
                    .execute(
                            RunSpecs.normalize(Json.write(spec)),
                            spec.path("runId").asText());
            cloud.reconcile();
            return new RunOutcome(r, cloud.inventory());
        }
    }

    record RunOutcome(RunReport report, List<String> left) {}

    /**
     * quickstart on c5.2xlarge (8 vCPUs): 7750m per worker plus the checkpoint sidecar's 50m is
     * 7800m. The AMI leaves 7910m, less 145m of DaemonSets (kube-proxy, aws-node, the Pod Identity
     * Agent, the EFS node plugin): 7765m, too little. A table reserving nothing leaves 7855m.
     */
    static ObjectNode spec() throws IOException {
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples", "quickstart.json")));
        spec.put("runId", "wrong-table");
        ((ObjectNode) spec.path("training")).put("cpu", "7750m");
        return spec;
    }

    @Test
    void theRightTableRefusesTheSpecBeforeAnythingIsCreated() throws IOException {
        assertThat(RunSpecs.problems(spec().toString()))
                .extracting(SpecProblem::pointer)
                .contains("/training/cpu");
    }

    @Test
    void aWrongAllocatableTableLetsTheSpecThroughButTheTwinsNodesLeaveThePodsUnschedulable() throws IOException {
        NodeAllocatable.wrongForTests = true;
        ObjectNode spec = spec();
        assertThat(RunSpecs.problems(spec.toString()))
                .as("the wrong table fits it")
                .isEmpty();

        RunOutcome o = run(spec);
        RunReport r = o.report();

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("FAILED");
        assertThat(r.failedState()).isEqualTo("CheckTraining");
        assertThat(r.error() + " " + r.cause()).contains("Unschedulable").contains("Insufficient cpu");
        assertThat(r.resources().remaining()).isEmpty();
        assertThat(o.left()).isEmpty();
    }

    /**
     * On TestTime's day (2026-11-27) Kubernetes 1.31 is past EKS's extended support (it ended at the
     * start of 2026-11-26). A product calendar that still has it in extended support lets the run
     * start; the twin's EKS, by its own calendar, refuses the cluster. Were it asking the product's
     * calendar, the cluster would be created and the run would go on.
     */
    @Test
    void aWrongVersionCalendarLetsTheRunStartButTheTwinsEksRefusesTheCluster() throws IOException {
        java.time.LocalDate day = KubernetesVersions.day(TestTime.START);
        assertThat(KubernetesVersions.canCreate("1.31", day))
                .as("EKS's calendar")
                .isFalse();
        KubernetesVersions.wrongForTests = KubernetesVersions.all().stream()
                .map(v -> v.version().equals("1.31")
                        ? new KubernetesVersions.Version(
                                v.version(),
                                v.eksRelease(),
                                v.endOfStandardSupport(),
                                v.endOfExtendedSupport().plusYears(1))
                        : v)
                .toList();
        assertThat(KubernetesVersions.canCreate("1.31", day))
                .as("the wrong calendar")
                .isTrue();
        ObjectNode spec = (ObjectNode) Json.read(Files.readString(Path.of("examples", "quickstart.json")));
        spec.put("runId", "wrong-calendar");
        ((ObjectNode) spec.path("cluster")).put("kubernetesVersion", "1.31");

        RunOutcome o = run(spec);
        RunReport r = o.report();

        assertThat(r.status()).as(r.error() + " " + r.cause()).isEqualTo("FAILED");
        assertThat(r.cause()).contains("unsupported Kubernetes version 1.31");
        assertThat(r.resources().created()).noneMatch(c -> c.startsWith("eks:cluster/"));
        assertThat(o.left()).isEmpty();
        System.out.printf("wrong-calendar: %s at %s: %s%n", r.error(), r.failedState(), r.cause());
    }
}
