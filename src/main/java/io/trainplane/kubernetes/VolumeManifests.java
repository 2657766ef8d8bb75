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
 * The run's EFS or FSx for Lustre file system as Kubernetes sees it: a StorageClass of the file
 * system's CSI driver, a statically provisioned PersistentVolume for the file system
 * (ReadWriteMany) and the claim the pods mount. Deleting them never touches the file system (reclaim policy Retain); the file
 * system's own teardown does.
 */
public final class VolumeManifests {
    public static final String EFS_CSI_DRIVER = "efs.csi.aws.com";
    public static final String FSX_CSI_DRIVER = "fsx.csi.aws.com";
    public static final String CLAIM = "shared";
    /** EFS is elastic; Kubernetes wants a size anyway. */
    static final Quantity NOMINAL_CAPACITY = new Quantity("1Ti");

    private final Names names;
    private final String fileSystemId;
    /** The StorageClass's and PersistentVolume's name (cluster-scoped, so per run). */
    private final String name;

    private final String driver;
    private final Map<String, String> attributes;
    private final List<String> mountOptions;
    private final Quantity capacity;

    /** An EFS file system. */
    public VolumeManifests(Names names, String fileSystemId) {
        this(names, fileSystemId, names.volume(), EFS_CSI_DRIVER, Map.of(), List.of(), NOMINAL_CAPACITY);
    }

    private VolumeManifests(
            Names names,
            String fileSystemId,
            String name,
            String driver,
            Map<String, String> attributes,
            List<String> mountOptions,
            Quantity capacity) {
        this.names = names;
        this.fileSystemId = fileSystemId;
        this.name = name;
        this.driver = driver;
        this.attributes = attributes;
        this.mountOptions = mountOptions;
        this.capacity = capacity;
    }

    /**
     * An FSx for Lustre file system, statically provisioned as the FSx CSI driver documents it
     * (https://github.com/kubernetes-sigs/aws-fsx-csi-driver/blob/master/examples/kubernetes/static_provisioning/README.md):
     * volumeHandle the file system id, volumeAttributes its DNS name and mount name, mount option
     * {@code flock} (https://docs.aws.amazon.com/fsx/latest/LustreGuide/mounting-on-premises.html
     * mounts with {@code -o relatime,flock}).
     */
    public static VolumeManifests lustre(
            Names names, String fileSystemId, String dnsName, String mountName, int capacityGiB) {
        return new VolumeManifests(
                names,
                fileSystemId,
                names.lustreVolume(),
                FSX_CSI_DRIVER,
                Map.of("dnsname", dnsName, "mountname", mountName),
                List.of("flock"),
                new Quantity(capacityGiB + "Gi"));
    }

    public List<HasMetadata> all() {
        return List.of(storageClass(), persistentVolume(), claim());
    }

    public StorageClass storageClass() {
        return new StorageClassBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(names.labels())
                .endMetadata()
                .withProvisioner(driver)
                .withMountOptions(mountOptions.isEmpty() ? null : mountOptions)
                .withReclaimPolicy("Retain")
                .withVolumeBindingMode("Immediate")
                .build();
    }

    public PersistentVolume persistentVolume() {
        return new PersistentVolumeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(names.labels())
                .endMetadata()
                .withNewSpec()
                .withCapacity(Map.of("storage", capacity))
                .withAccessModes("ReadWriteMany")
                .withPersistentVolumeReclaimPolicy("Retain")
                .withStorageClassName(name)
                .withMountOptions(mountOptions.isEmpty() ? null : mountOptions)
                .withNewCsi()
                .withDriver(driver)
                .withVolumeHandle(fileSystemId)
                .withVolumeAttributes(attributes.isEmpty() ? null : attributes)
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
                .withStorageClassName(name)
                .withVolumeName(name)
                .withNewResources()
                .addToRequests("storage", capacity)
                .endResources()
                .endSpec()
                .build();
    }
}
