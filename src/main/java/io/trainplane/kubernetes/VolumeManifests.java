package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.trainplane.spec.Names;
import java.util.List;
import java.util.Map;

/**
 * The run's EFS file system as Kubernetes sees it: a StorageClass of the EFS CSI driver, a
 * statically provisioned PersistentVolume for the file system (ReadWriteMany) and the claim the
 * pods mount. Deleting them never touches the file system (reclaim policy Retain); the file
 * system's own teardown does.
 */
public final class VolumeManifests {
    public static final String EFS_CSI_DRIVER = "efs.csi.aws.com";
    public static final String CLAIM = "shared";
    /** EFS is elastic; Kubernetes wants a size anyway. */
    static final Quantity NOMINAL_CAPACITY = new Quantity("1Ti");

    private final Names names;
    private final String fileSystemId;

    public VolumeManifests(Names names, String fileSystemId) {
        this.names = names;
        this.fileSystemId = fileSystemId;
    }

    public List<HasMetadata> all() {
        return List.of(storageClass(), persistentVolume(), claim());
    }

    public StorageClass storageClass() {
        return new StorageClassBuilder()
                .withNewMetadata()
                .withName(names.volume())
                .withLabels(names.labels())
                .endMetadata()
                .withProvisioner(EFS_CSI_DRIVER)
                .withReclaimPolicy("Retain")
                .withVolumeBindingMode("Immediate")
                .build();
    }

    public PersistentVolume persistentVolume() {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(names.volume())
                .withLabels(names.labels())
                .endMetadata()
                .withNewSpec()
                .withCapacity(Map.of("storage", NOMINAL_CAPACITY))
                .withAccessModes("ReadWriteMany")
                .withPersistentVolumeReclaimPolicy("Retain")
                .withStorageClassName(names.volume())
                .withNewCsi()
                .withDriver(EFS_CSI_DRIVER)
                .withVolumeHandle(fileSystemId)
                .endCsi()
                .withNewClaimRef()
                .withNamespace(names.namespace())
                .withName(CLAIM)
                .endClaimRef()
                .endSpec()
                .build();
    }

    public PersistentVolumeClaim claim() {
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(CLAIM)
                .withNamespace(names.namespace())
                .withLabels(names.labels())
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteMany")
                .withStorageClassName(names.volume())
                .withVolumeName(names.volume())
                .withNewResources()
                .addToRequests("storage", NOMINAL_CAPACITY)
                .endResources()
                .endSpec()
                .build();
    }
}
