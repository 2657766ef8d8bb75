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
