package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rules across fields, which the schema cannot say. */
class SpecRulesTest {
    private static final RunSpec BASE = RunSpecs.parse(RunSpecsTest.MINIMAL);

    @Test
    void aValidSpecBreaksNoRule() {
        assertThat(SpecRules.check(BASE, BASE.toJson())).isEmpty();
    }

    @Test
    void moreProcessesThanGpusPerWorkerIsRefused() {
        List<SpecProblem> problems = RunSpecs.problems("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                + " \"training\": {\"gpusPerWorker\": 2, \"procsPerWorker\": 4}}");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/training/procsPerWorker");
            assertThat(p.hint()).isEqualTo("set procsPerWorker to 2 (one process per GPU)");
        });
    }

    @Test
    void trainingLongerThanTheRunIsRefusedAndSaysWhenTheTimeoutIsTheDefault() {
        List<SpecProblem> defaulted =
                RunSpecs.problems("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"}, \"maxRunHours\": 2}");
        List<SpecProblem> given = RunSpecs.problems("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                + " \"maxRunHours\": 1, \"training\": {\"timeoutMinutes\": 61}}");

        assertThat(defaulted).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/training/timeoutMinutes");
            assertThat(p.message()).startsWith("is 240 minutes (the default), longer than");
            assertThat(p.hint()).contains("at most 120");
        });
        assertThat(given).singleElement().satisfies(p -> assertThat(p.message()).startsWith("is 61 minutes, longer"));
    }

    @Test
    void zeroCpuOrMemoryIsRefused() {
        List<SpecProblem> problems = RunSpecs.problems("{\"cluster\": {\"mode\": \"existing\", \"name\": \"c\"},"
                + " \"training\": {\"cpu\": \"0m\", \"memory\": \"0.0Gi\"}}");

        assertThat(problems).extracting(SpecProblem::pointer).containsExactly("/training/cpu", "/training/memory");
    }

    private static List<SpecProblem> nodeGroup(String nodeGroup) {
        return RunSpecs.problems("{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": " + nodeGroup + "}}");
    }

    @Test
    void gpusPerNodeOtherThanTheInstanceTypesIsRefusedWithItsRealFigures() {
        assertThat(nodeGroup("{\"instanceType\": \"g5.12xlarge\", \"nodes\": 1, \"gpusPerNode\": 8}"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/gpusPerNode");
                    assertThat(p.message())
                            .isEqualTo(
                                    "is 8, but g5.12xlarge has 4 NVIDIA A10G GPUs (48 vCPUs, 192 GiB; EC2 catalog of "
                                            + InstanceShapes.date() + ")");
                    assertThat(p.hint()).startsWith("set cluster.nodeGroup.gpusPerNode to 4, or leave it out");
                });
        // Stating half a p4d's GPUs is refused too: a spec states gpusPerNode only to assert it.
        assertThat(nodeGroup("{\"instanceType\": \"p4d.24xlarge\", \"nodes\": 1, \"gpusPerNode\": 4}"))
                .singleElement()
                .satisfies(p -> assertThat(p.message())
                        .startsWith("is 4, but p4d.24xlarge has 8 NVIDIA A100 GPUs (96 vCPUs, 1152 GiB;"));
    }

    @Test
    void gpusPerNodeIsDerivedFromTheInstanceTypeWhenNotStated() {
        RunSpec spec = RunSpecs.parse(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"p4d.24xlarge\", \"nodes\": 1}}}");
        RunSpec l4 = RunSpecs.parse(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"g6.xlarge\", \"nodes\": 2}}}");
        RunSpec cpu = RunSpecs.parse(
                "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"c5.2xlarge\", \"nodes\": 1}}}");

        assertThat(spec.cluster().nodeGroup().gpusPerNode()).isEqualTo(8);
        assertThat(l4.cluster().nodeGroup().gpusPerNode()).isEqualTo(1);
        assertThat(cpu.cluster().nodeGroup().gpusPerNode()).isZero();
        assertThat(nodeGroup("{\"instanceType\": \"g5.12xlarge\", \"nodes\": 1, \"gpusPerNode\": 4}"))
                .isEmpty();
    }

    @Test
    void efaOnAnInstanceTypeWithoutItIsRefused() {
        for (String type : List.of("c5.2xlarge", "g5.xlarge")) {
            assertThat(nodeGroup("{\"instanceType\": \"" + type + "\", \"nodes\": 2, \"efa\": true}"))
                    .singleElement()
                    .satisfies(p -> {
                        assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/efa");
                        assertThat(p.message()).startsWith("is true, but " + type + " does not support EFA (");
                        assertThat(p.hint()).startsWith("set cluster.nodeGroup.efa to false, or choose a type");
                    });
        }
        assertThat(nodeGroup("{\"instanceType\": \"g5.xlarge\", \"nodes\": 2, \"efa\": true}")
                        .getFirst()
                        .hint())
                .contains("g5.8xlarge");
        assertThat(nodeGroup("{\"instanceType\": \"g5.12xlarge\", \"nodes\": 1, \"efa\": true}"))
                .isEmpty();
    }

    @Test
    void gpuWorkersMustFitTheCreatedNodeGroup() {
        assertThat(check(createWith(4), gpuTraining(3, 2))).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/training/workers");
            assertThat(p.message())
                    .isEqualTo("3 workers with 2 GPUs each do not fit on 1 node with 4 GPUs each"
                            + " (room for 2 workers)");
            assertThat(p.hint()).isEqualTo("set training.workers to at most 2, or cluster.nodeGroup.nodes to 2");
        });
        assertThat(check(createWith(4), gpuTraining(2, 2))).isEmpty();
        assertThat(check(createWith(1), gpuTraining(1, 2))).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/training/gpusPerWorker");
            assertThat(p.message()).isEqualTo("asks for 2 GPUs per worker, but a node has only 1");
        });
        assertThat(check(createWith(0), gpuTraining(1, 1))).singleElement().satisfies(p -> assertThat(p.message())
                .contains("the nodes have none"));
    }

    private static List<SpecProblem> check(ClusterSpec cluster, TrainingSpec training) {
        RunSpec spec = new RunSpec(
                null,
                cluster,
                BASE.volume(),
                BASE.data(),
                training,
                BASE.workload(),
                BASE.evaluation(),
                BASE.output(),
                BASE.cleanup(),
                BASE.maxRunHours(),
                null);
        return SpecRules.check(spec, JsonNodeFactory.instance.objectNode());
    }

    private static ClusterSpec createWith(int gpusPerNode) {
        return new ClusterSpec(
                ClusterMode.CREATE,
                null,
                "1.35",
                new NodeGroupSpec("g5.12xlarge", 1, gpusPerNode, CapacityType.ON_DEMAND, null, false));
    }

    private static TrainingSpec gpuTraining(int workers, int gpusPerWorker) {
        TrainingSpec t = BASE.training();
        return new TrainingSpec(
                t.launcher(),
                t.image(),
                workers,
                1,
                t.epochs(),
                t.batchSize(),
                t.learningRate(),
                t.cpu(),
                t.memory(),
                gpusPerWorker,
                t.maxRestarts(),
                t.maxInterruptions(),
                t.timeoutMinutes(),
                t.resumeFrom());
    }
}
