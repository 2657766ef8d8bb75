package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The EC2 instance catalog's facts, what a Region sells, and node groups named by their GPUs. */
class InstanceCatalogTest {
    private static final LocalDate DAY = LocalDate.parse("2026-11-28");

    private static String created(String nodeGroup) {
        return "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": " + nodeGroup + "}}";
    }

    @Test
    void theFactsAreDescribeInstanceTypesOwn() {
        InstanceShapes.Shape g5 = InstanceShapes.of("g5.12xlarge").orElseThrow();
        assertThat(g5.describe())
                .isEqualTo("g5.12xlarge: 4 NVIDIA A10G GPUs (22 GiB each), 48 vCPUs, 192 GiB, 1 EFA interface");
        // maxPods: ENIs of the default network card × (IPv4 per ENI − 1) + 2, as the EKS AMI computes it.
        assertThat(g5.maxPods()).isEqualTo(737);
        assertThat(InstanceShapes.of("p5.48xlarge").orElseThrow().maxPods()).isEqualTo(100);
        assertThat(InstanceShapes.of("p5.48xlarge").orElseThrow().efaInterfaces())
                .isEqualTo(32);
        assertThat(InstanceShapes.of("t3.medium").orElseThrow().maxPods()).isEqualTo(17);
        assertThat(InstanceShapes.of("p5e.48xlarge").orElseThrow().describe())
                .isEqualTo("p5e.48xlarge: 8 NVIDIA H200 GPUs (141 GiB each), 192 vCPUs, 2048 GiB, 32 EFA interfaces");
        assertThat(InstanceShapes.of("trn2.48xlarge").orElseThrow().gpuText())
                .isEqualTo("16 Trainium2 Neuron devices, no GPU");
        assertThat(InstanceShapes.of("c7g.2xlarge").orElseThrow().architecture())
                .isEqualTo(InstanceShapes.ARM64);
        // Every current accelerated family, and the Regions EKS runs in.
        assertThat(InstanceShapes.all().stream()
                        .map(s -> s.name().substring(0, s.name().indexOf('.'))))
                .contains("g4dn", "g5", "g6", "g6e", "p4d", "p4de", "p5", "p5e", "p5en", "trn1", "trn2", "inf2");
        assertThat(InstanceShapes.knowsRegion("eu-west-1")).isTrue();
        assertThat(InstanceShapes.knowsRegion("ap-southeast-4")).isTrue();
    }

    @Test
    void capacityBlocksAreSoldForTheTypesWhoseUsageClassesSaySo() {
        assertThat(SpecRules.capacityBlockFamilies()).contains("p4d", "p5", "p5e", "p5en", "trn1", "trn2");
        assertThat(SpecRules.capacityBlockFamilies()).doesNotContain("g5", "c5");
    }

    @Test
    void aTypeTheRegionDoesNotSellIsRefusedNamingTheRegionsThatDo() {
        String spec = created("{\"instanceType\": \"p5e.48xlarge\", \"nodes\": 1}");
        assertThat(InstanceShapes.offeredIn("p5e.48xlarge", "us-east-1")).isFalse();

        List<SpecProblem> problems = RunSpecs.problems(spec, DAY, "us-east-1");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/instanceType");
            assertThat(p.message()).startsWith("\"p5e.48xlarge\" is not sold in us-east-1 (EC2 catalog of ");
            assertThat(p.hint()).contains("us-east-2", "us-west-2");
        });
        assertThat(RunSpecs.problems(spec, DAY, "us-east-2")).isEmpty();
        assertThat(RunSpecs.problems(spec, DAY, null)).isEmpty(); // no Region to judge by
        assertThat(RunSpecs.problems(created("{\"instanceType\": \"g6.xlarge\", \"nodes\": 2}"), DAY, "us-east-1"))
                .isEmpty();
    }

    @Test
    void anAcceleratorBecomesTheSmallestTypeWithThoseGpusTheRegionSells() {
        assertThat(typeOf("\"A100:8\"", "us-east-1")).isEqualTo("p4d.24xlarge");
        assertThat(typeOf("\"A100-80GB:8\"", "us-east-1")).isEqualTo("p4de.24xlarge");
        assertThat(typeOf("\"L4:1\"", "us-east-1")).isEqualTo("g6.xlarge");
        assertThat(typeOf("\"a10g:1\"", "eu-west-1")).isEqualTo("g5.xlarge");
        assertThat(typeOf("\"H200:8\"", "us-east-2")).isEqualTo("p5e.48xlarge");
        assertThat(typeOf("\"H200:8\"", "us-east-1")).isEqualTo("p5en.48xlarge"); // p5e is not sold there
        RunSpec spec = RunSpecs.parse(created("{\"accelerator\": \"H100:8\", \"nodes\": 2}"), DAY, "us-east-1");
        assertThat(spec.cluster().nodeGroup().gpusPerNode()).isEqualTo(8);
        // The normalized spec names the type: it is what is stored and hashed.
        assertThat(spec.toJson().at("/cluster/nodeGroup").has("accelerator")).isFalse();
    }

    @Test
    void anAcceleratorNoTypeHasOrTheRegionDoesNotSellIsRefused() {
        assertThat(RunSpecs.problems(created("{\"accelerator\": \"A100:3\", \"nodes\": 1}"), DAY, "us-east-1"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/accelerator");
                    assertThat(p.message()).contains("has exactly 3 NVIDIA A100 GPUs");
                    assertThat(p.hint()).contains("A100 (8)", "L4 (1, 4, 8)");
                });
        assertThat(RunSpecs.problems(created("{\"accelerator\": \"H200:8\", \"nodes\": 1}"), DAY, "eu-west-1"))
                .singleElement()
                .satisfies(p -> {
                    assertThat(p.message())
                            .contains("eu-west-1 sells none of the types with those GPUs (p5e.48xlarge, p5en.48xlarge");
                    assertThat(p.hint()).contains("us-east-1", "us-east-2");
                });
        assertThat(RunSpecs.problems(created("{\"accelerator\": \"A100\", \"nodes\": 1}")))
                .extracting(SpecProblem::pointer)
                .containsExactly("/cluster/nodeGroup/accelerator");
        assertThat(RunSpecs.problems(
                        created("{\"accelerator\": \"A100:8\", \"instanceType\": \"p4d.24xlarge\", \"nodes\": 1}")))
                .isNotEmpty();
    }

    private static String typeOf(String accelerator, String region) {
        return RunSpecs.parse(created("{\"accelerator\": " + accelerator + ", \"nodes\": 2}"), DAY, region)
                .cluster()
                .nodeGroup()
                .instanceType();
    }
}
