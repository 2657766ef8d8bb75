package io.trainplane.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.trainplane.spec.Names;
import org.junit.jupiter.api.Test;

/** The FSx for Lustre PersistentVolume as the FSx CSI driver's static provisioning takes it. */
class LustreVolumeManifestsTest {
    @Test
    void thePvNamesTheFileSystemItsDnsNameAndMountNameAndMountsWithFlock() {
        Names names = new Names("run-1");
        VolumeManifests manifests = VolumeManifests.lustre(
                names, "fs-0123456789abcdef0", "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com", "abcdef12", 2400);
        PersistentVolume pv = manifests.persistentVolume();
        assertThat(pv.getSpec().getCsi().getDriver()).isEqualTo("fsx.csi.aws.com");
        assertThat(pv.getSpec().getCsi().getVolumeHandle()).isEqualTo("fs-0123456789abcdef0");
        assertThat(pv.getSpec().getCsi().getVolumeAttributes())
                .containsEntry("dnsname", "fs-0123456789abcdef0.fsx.us-east-1.amazonaws.com")
                .containsEntry("mountname", "abcdef12");
        assertThat(pv.getSpec().getMountOptions()).containsExactly("flock");
        assertThat(pv.getSpec().getCapacity().get("storage").toString()).isEqualTo("2400Gi");
        assertThat(manifests.storageClass().getProvisioner()).isEqualTo("fsx.csi.aws.com");
        assertThat(manifests.claim().getSpec().getVolumeName())
                .isEqualTo(pv.getMetadata().getName());
        // EFS's keep theirs: no attributes, no mount options.
        PersistentVolume efs = new VolumeManifests(names, "fs-0123456789abcdef0").persistentVolume();
        assertThat(efs.getSpec().getCsi().getDriver()).isEqualTo("efs.csi.aws.com");
        assertThat(efs.getSpec().getMountOptions()).isNullOrEmpty();
        assertThat(efs.getSpec().getCsi().getVolumeAttributes()).isNullOrEmpty();
    }
}
