package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The nodes' root volume: sized by default for the images they pull, bounded by EKS's default and gp3's largest. */
class NodeDiskTest {
    static String spec(String nodeGroupExtra, String trainingExtra) {
        return "{\"cluster\": {\"mode\": \"create\", \"nodeGroup\": {\"instanceType\": \"c5.2xlarge\", \"nodes\": 1"
                + nodeGroupExtra + "}}, \"training\": {\"workers\": 1, \"cpu\": \"4\", \"memory\": \"8Gi\""
                + trainingExtra + "}}";
    }

    @Test
    void theDefaultHoldsTheTrainingImageBelowTheKubeletsImageGcThreshold() {
        // The default PyTorch image: 3.4 GB compressed, kept compressed and unpacked, plus the system.
        assertThat(RunSpecs.parse(spec("", "")).cluster().nodeGroup().diskGiB()).isEqualTo(30);
        // An image of the user's own, whose size is unknown: taken as a 10 GB CUDA image.
        assertThat(RunSpecs.parse(spec("", ", \"image\": \"123456789012.dkr.ecr.us-east-1.amazonaws.com/train:1\""))
                        .cluster()
                        .nodeGroup()
                        .diskGiB())
                .isEqualTo(50);
        assertThat(NodeDisk.defaultGiB("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime"))
                .isGreaterThan(NodeDisk.EKS_DEFAULT_GIB);
    }

    @Test
    void aGivenSizeIsKeptAndOneOutsideTwentyToSixteenTebibytesIsRefused() {
        assertThat(RunSpecs.parse(spec(", \"diskGiB\": 200", ""))
                        .cluster()
                        .nodeGroup()
                        .diskGiB())
                .isEqualTo(200);
        assertThat(RunSpecs.problems(spec(", \"diskGiB\": 10", "")))
                .extracting(SpecProblem::pointer)
                .containsExactly("/cluster/nodeGroup/diskGiB");
        assertThat(RunSpecs.problems(spec(", \"diskGiB\": 20000", "")))
                .extracting(SpecProblem::pointer)
                .containsExactly("/cluster/nodeGroup/diskGiB");
    }

    @Test
    void theNormalizedSpecCarriesTheSizeSoThatNormalizingAgainChangesNothing() {
        var normalized = RunSpecs.normalize(spec("", ""));
        assertThat(normalized.at("/cluster/nodeGroup/diskGiB").asInt()).isEqualTo(30);
        assertThat(RunSpecs.normalize(normalized.toString())).isEqualTo(normalized);
    }
}
