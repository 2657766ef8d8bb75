package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A node group's {@code instanceTypes}: a SPOT group diversified across types of one shape. */
class SpotInstanceTypesTest {
    static String spec(String nodeGroup, String training) {
        return """
                {"cluster": {"mode": "create", "nodeGroup": {%s}},
                 "training": {"workers": 2%s}}"""
                .formatted(nodeGroup, training);
    }

    static String spot(String types) {
        return spec("\"instanceTypes\": " + types + ", \"nodes\": 2, \"capacityType\": \"SPOT\"", "");
    }

    static List<String> pointers(List<SpecProblem> problems) {
        return problems.stream().map(SpecProblem::pointer).toList();
    }

    @Test
    void aSpotGroupOfOneShapeIsValidAndKeepsItsListInOrder() {
        RunSpec spec = RunSpecs.parse(spot("[\"c5a.2xlarge\", \"c5.2xlarge\", \"c6i.2xlarge\"]"));

        NodeGroupSpec nodes = spec.cluster().nodeGroup();
        assertThat(nodes.types()).containsExactly("c5a.2xlarge", "c5.2xlarge", "c6i.2xlarge");
        assertThat(nodes.firstType()).isEqualTo("c5a.2xlarge");
        assertThat(nodes.instanceType()).isNull();
        assertThat(spec.toJson().at("/cluster/nodeGroup/instanceTypes").toString())
                .isEqualTo("[\"c5a.2xlarge\",\"c5.2xlarge\",\"c6i.2xlarge\"]");
        assertThat(spec.toJson().at("/cluster/nodeGroup").has("instanceType")).isFalse();
        assertThat(RunSpecs.parse(spec.toJson())).isEqualTo(spec);
    }

    @Test
    void aListOfOneIsTheSameNodeGroupAsThatType() {
        var listed = RunSpecs.normalize(spec("\"instanceTypes\": [\"c5.2xlarge\"], \"nodes\": 2", ""));
        var single = RunSpecs.normalize(spec("\"instanceType\": \"c5.2xlarge\", \"nodes\": 2", ""));
        assertThat(listed).isEqualTo(single);
    }

    @Test
    void severalTypesAreForSpotOnlyAndTheErrorSaysWhy() {
        List<SpecProblem> onDemand =
                RunSpecs.problems(spec("\"instanceTypes\": [\"c5.2xlarge\", \"c6i.2xlarge\"], \"nodes\": 2", ""));

        assertThat(onDemand).hasSize(1);
        SpecProblem problem = onDemand.getFirst();
        assertThat(problem.pointer()).isEqualTo("/cluster/nodeGroup/instanceTypes");
        assertThat(problem.message())
                .isEqualTo("lists 2 instance types, but capacityType is ON_DEMAND (the default): only a SPOT node"
                        + " group takes several (on-demand nodes are not reclaimed, so other types add no capacity"
                        + " worth having, and the plan prices one)");
        assertThat(problem.hint())
                .isEqualTo("set cluster.nodeGroup.capacityType to \"SPOT\", or give one type:"
                        + " \"instanceType\": \"c5.2xlarge\"");
    }

    @Test
    void bothSpellingsOrNeitherAreRefused() {
        List<SpecProblem> both = RunSpecs.problems(spec(
                "\"instanceType\": \"c5.2xlarge\", \"instanceTypes\": [\"c5.2xlarge\", \"c6i.2xlarge\"], \"nodes\": 2,"
                        + " \"capacityType\": \"SPOT\"",
                ""));
        assertThat(pointers(both)).containsExactly("/cluster/nodeGroup/instanceType");
        assertThat(both.getFirst().message()).isEqualTo("is not allowed");
        assertThat(both.getFirst().hint()).contains("Give instanceType, or instanceTypes");

        List<SpecProblem> neither = RunSpecs.problems(spec("\"nodes\": 2", ""));
        assertThat(pointers(neither)).containsExactly("/cluster/nodeGroup/instanceType");
        assertThat(neither.getFirst().message()).isEqualTo("is required");
    }

    @Test
    void theListIsNotEmptyHasNoDuplicatesAndAtMostTwentyTypes() {
        List<SpecProblem> empty = RunSpecs.problems(spot("[]"));
        assertThat(pointers(empty)).containsExactly("/cluster/nodeGroup/instanceTypes");
        assertThat(empty.getFirst().message()).isEqualTo("must list at least 1, not 0");

        List<SpecProblem> twice = RunSpecs.problems(spot("[\"c5.2xlarge\", \"c6i.2xlarge\", \"c5.2xlarge\"]"));
        assertThat(pointers(twice)).containsExactly("/cluster/nodeGroup/instanceTypes");
        assertThat(twice.getFirst().message()).isEqualTo("lists \"c5.2xlarge\" more than once");
        assertThat(twice.getFirst().hint()).isEqualTo("list each value once: remove the duplicate \"c5.2xlarge\"");

        String many = IntStream.range(0, 21)
                .mapToObj(i -> "\"c5." + i + "xlarge\"")
                .collect(Collectors.joining(", ", "[", "]"));
        List<SpecProblem> tooMany = RunSpecs.problems(spot(many));
        assertThat(pointers(tooMany)).containsExactly("/cluster/nodeGroup/instanceTypes");
        assertThat(tooMany.getFirst().message()).isEqualTo("lists 21, more than the 20 allowed");
    }

    @Test
    void everyListedTypeMustBeKnown() {
        List<SpecProblem> problems = RunSpecs.problems(spot("[\"c5.2xlarge\", \"hpc7g.4xlarge\"]"));

        assertThat(pointers(problems)).containsExactly("/cluster/nodeGroup/instanceTypes/1");
        assertThat(problems.getFirst().message()).startsWith("\"hpc7g.4xlarge\" is not an instance type whose shape");
        assertThat(problems.getFirst().hint())
                .contains("families c5, c5a, c6i,")
                .endsWith("or give this one alone as \"instanceType\"");
    }

    @Test
    void everyListedTypeHasTheFirstsGpusAndEfa() {
        List<SpecProblem> gpu = RunSpecs.problems(spot("[\"g5.2xlarge\", \"m5.2xlarge\"]")
                .replace("\"capacityType\": \"SPOT\"", "\"capacityType\": \"SPOT\", \"gpusPerNode\": 1"));
        assertThat(pointers(gpu)).containsExactly("/cluster/nodeGroup/instanceTypes/1");
        assertThat(gpu.getFirst().message())
                .isEqualTo("m5.2xlarge has no GPU, no EFA, x86_64, but g5.2xlarge (the first) has 1 NVIDIA A10G GPU,"
                        + " no EFA, x86_64: the workers are sized once, so every listed type must have the same GPUs,"
                        + " EFA interfaces and architecture");
        assertThat(gpu.getFirst().hint())
                .isEqualTo("remove m5.2xlarge from instanceTypes, or list types shaped like"
                        + " g5.2xlarge: g5.4xlarge, g5.xlarge");

        List<SpecProblem> efa = RunSpecs.problems(spot("[\"p4d.24xlarge\", \"p5.48xlarge\"]")
                .replace(
                        "\"capacityType\": \"SPOT\"", "\"capacityType\": \"SPOT\", \"gpusPerNode\": 8, \"efa\": true"));
        assertThat(pointers(efa)).containsExactly("/cluster/nodeGroup/instanceTypes/1");
        assertThat(efa.getFirst().message()).contains("8 NVIDIA H100 GPUs, 32 EFA interfaces");
    }

    @Test
    void gpusPerNodeIsTheListedTypesCount() {
        assertThat(RunSpecs.problems(spot("[\"g5.xlarge\", \"g5.2xlarge\"]"))).isEmpty(); // derived: 1
        List<SpecProblem> problems = RunSpecs.problems(spot("[\"g5.xlarge\", \"g5.2xlarge\"]")
                .replace("\"capacityType\": \"SPOT\"", "\"capacityType\": \"SPOT\", \"gpusPerNode\": 2"));

        assertThat(pointers(problems)).containsExactly("/cluster/nodeGroup/gpusPerNode");
        assertThat(problems.getFirst().message())
                .isEqualTo("is 2, but each of the listed instance types has 1 NVIDIA A10G GPU");
        assertThat(problems.getFirst().hint()).isEqualTo("set cluster.nodeGroup.gpusPerNode to 1");
    }

    @Test
    void aWorkerMustFitTheSmallestListedType() {
        String nodeGroup =
                "\"instanceTypes\": [\"m5.2xlarge\", \"c5.xlarge\"], \"nodes\": 2, \"capacityType\": \"SPOT\"";
        List<SpecProblem> problems = RunSpecs.problems(spec(nodeGroup, ", \"cpu\": \"6\", \"memory\": \"12Gi\""));

        assertThat(pointers(problems)).containsExactly("/training/cpu", "/training/memory");
        assertThat(problems.get(0).message())
                .isEqualTo("asks for 6 CPUs per worker (with the checkpoint sidecar's 50m CPU and 128Mi), but a"
                        + " c5.xlarge node leaves pods only 3.785 CPUs of its 4 vCPUs (the EKS AMI reserves 0.08 CPUs"
                        + " for the kubelet and the system, and the node's DaemonSet pods [kube-proxy, aws-node,"
                        + " eks-pod-identity-agent] ask for 0.135 CPUs)");
        assertThat(problems.get(0).hint())
                .startsWith("set training.cpu to at most \"3735m\"")
                .endsWith("or remove it from cluster.nodeGroup.instanceTypes");
        assertThat(problems.get(1).message())
                .startsWith("asks for 12Gi per worker (with the checkpoint sidecar's 50m CPU and 128Mi), but a"
                        + " c5.xlarge node leaves pods only 7199Mi of its 8 GiB");
        assertThat(RunSpecs.problems(spec(nodeGroup, ", \"cpu\": \"3\", \"memory\": \"6Gi\"")))
                .isEmpty();
    }

    @Test
    void quantitiesAreReadInTheirUnits() {
        assertThat(SpecRules.quantity("500m")).isEqualTo(0.5);
        assertThat(SpecRules.quantity("2Gi")).isEqualTo(2.0 * 1024 * 1024 * 1024);
        assertThat(SpecRules.quantity("4G")).isEqualTo(4e9);
        assertThat(SpecRules.quantity("1.5")).isEqualTo(1.5);
    }
}
