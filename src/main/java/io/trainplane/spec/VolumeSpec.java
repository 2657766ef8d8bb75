package io.trainplane.spec;

import java.util.Objects;

/**
 * Shared storage of the run. {@code fileSystemId} names an existing file system of the type (EFS or
 * FSx for Lustre); null means the run creates one or uses none. The other fields are FSx for
 * Lustre's ({@code type} {@link VolumeType#FSX_LUSTRE}), null where the spec leaves them out:
 * {@link #lustreDeploymentType} and {@link #lustreStorageCapacityGiB} apply the defaults.
 */
public record VolumeSpec(
        VolumeType type,
        String fileSystemId,
        LustreDeploymentType deploymentType,
        Integer perUnitStorageThroughput,
        Integer storageCapacityGiB,
        String s3ImportPath,
        String s3ExportPath) {
    /** The smallest FSx for Lustre file system, 1.2 TiB: the default size. */
    public static final int LUSTRE_DEFAULT_CAPACITY_GIB = 1200;

    public VolumeSpec {
        Objects.requireNonNull(type, "type");
    }

    public VolumeSpec(VolumeType type, String fileSystemId) {
        this(type, fileSystemId, null, null, null, null, null);
    }

    /** The FSx for Lustre deployment type: SCRATCH_2 unless the spec names one. */
    public LustreDeploymentType lustreDeploymentType() {
        return deploymentType == null ? LustreDeploymentType.SCRATCH_2 : deploymentType;
    }

    /** How plans and costs name the FSx for Lustre file system: "FSx for Lustre PERSISTENT_1 100 MB/s/TiB, 1200 GiB". */
    public String lustreDescription() {
        return "FSx for Lustre " + lustreDeploymentType()
                + (perUnitStorageThroughput == null ? "" : " " + perUnitStorageThroughput + " MB/s/TiB") + ", "
                + lustreStorageCapacityGiB() + " GiB";
    }

    /** The FSx for Lustre storage capacity: 1200 GiB unless the spec gives one. */
    public int lustreStorageCapacityGiB() {
        return storageCapacityGiB == null ? LUSTRE_DEFAULT_CAPACITY_GIB : storageCapacityGiB;
    }
}
