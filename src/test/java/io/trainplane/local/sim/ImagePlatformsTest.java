package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainplane.kubernetes.WorkloadManifests;
import org.junit.jupiter.api.Test;

/** A node pulls only images published for its architecture, as containerd does. */
class ImagePlatformsTest {
    @Test
    void anAmd64OnlyImageIsRefusedOnAnArm64NodeWithContainerdsError() {
        assertThat(ImagePulls.platformRefusal("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", "arm64"))
                .contains("failed to pull and unpack image \"docker.io/pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime\":"
                        + " no match for platform in manifest: not found");
        assertThat(ImagePulls.platformRefusal("pytorch/pytorch:2.5.1-cuda12.4-cudnn9-runtime", "amd64"))
                .isEmpty();
        // Images the twin knows no platforms of are taken to be multi-architecture.
        assertThat(ImagePulls.platformRefusal(WorkloadManifests.AWS_CLI_IMAGE, "arm64"))
                .isEmpty();
    }

    @Test
    void gravitonNodesRegisterAsArm64() {
        assertThat(InstanceTypes.require("c7g.2xlarge").architecture()).isEqualTo("arm64");
        assertThat(InstanceTypes.require("c5.2xlarge").architecture()).isEqualTo("amd64");
    }
}
