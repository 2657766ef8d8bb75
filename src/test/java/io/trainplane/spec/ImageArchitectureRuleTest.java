package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Graviton workers and the official PyTorch images, which are linux/amd64 only. */
class ImageArchitectureRuleTest {
    static String spec(String instanceType, String image) {
        return "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"" + instanceType
                + "\", \"nodes\": 1}}, \"training\": {\"workers\": 1, \"cpu\": \"4\", \"memory\": \"8Gi\""
                + (image == null ? "" : ", \"image\": \"" + image + "\"") + "}}";
    }

    @Test
    void aGravitonTypeWithTheDefaultPyTorchImageIsRefusedNamingTheField() {
        assertThat(RunSpecs.problems(spec("c7g.2xlarge", null))).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo("/cluster/nodeGroup/instanceType");
            assertThat(p.message()).contains("c7g.2xlarge, a Graviton (arm64) type", "linux/amd64 only");
            assertThat(p.hint()).contains("x86_64 instance type", "linux/arm64");
        });
        // By its name too, for a Graviton type the table does not list.
        assertThat(RunSpecs.problems(spec("m7g.xlarge", "docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime")))
                .extracting(SpecProblem::pointer)
                .contains("/cluster/nodeGroup/instanceType");
    }

    @Test
    void aGravitonTypeWithAnImageOfTheUsersOwnAndAnX86TypeWithPyTorchPass() {
        assertThat(RunSpecs.problems(spec("c7g.2xlarge", "123456789012.dkr.ecr.us-east-1.amazonaws.com/train:arm64")))
                .isEmpty();
        assertThat(RunSpecs.problems(spec("c6i.2xlarge", null))).isEmpty();
    }

    @Test
    void architecturesByTableAndByName() {
        assertThat(InstanceShapes.architecture("c7g.2xlarge")).isEqualTo(InstanceShapes.ARM64);
        assertThat(InstanceShapes.architecture("c7gn.16xlarge")).isEqualTo(InstanceShapes.ARM64);
        assertThat(InstanceShapes.architecture("g5g.xlarge")).isEqualTo(InstanceShapes.ARM64);
        assertThat(InstanceShapes.architecture("g4dn.xlarge")).isEqualTo(InstanceShapes.X86);
        assertThat(InstanceShapes.architecture("g5.xlarge")).isEqualTo(InstanceShapes.X86);
    }
}
