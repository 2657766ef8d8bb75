package io.trainplane.spec;

import java.util.List;

/**
 * The rules of {@code volume} for FSx for Lustre that the schema cannot say: which fields go with
 * which deployment type, the capacities AWS creates, and how the S3 link is given. Cited from
 * https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemLustreConfiguration.html
 * and https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html.
 */
final class LustreRules {
    private static final List<String> LUSTRE_FIELDS =
            List.of("deploymentType", "perUnitStorageThroughput", "storageCapacityGiB", "s3ImportPath", "s3ExportPath");

    private LustreRules() {}

    static void check(VolumeSpec volume, List<SpecProblem> problems) {
        if (volume.type() != VolumeType.FSX_LUSTRE) {
            for (String field : LUSTRE_FIELDS) {
                if (given(volume, field)) {
                    problems.add(new SpecProblem(
                            "/volume/" + field,
                            "is for FSx for Lustre only (volume.type is "
                                    + volume.type().json() + ")",
                            "set volume.type to \"fsx-lustre\", or leave volume." + field + " out"));
                }
            }
            return;
        }
        if (volume.fileSystemId() != null) {
            // An adopted file system is as its owner made it: nothing of the creation applies.
            for (String field : LUSTRE_FIELDS) {
                if (given(volume, field)) {
                    problems.add(new SpecProblem(
                            "/volume/" + field,
                            "describes a file system the run creates, but volume.fileSystemId adopts "
                                    + volume.fileSystemId() + " as it is",
                            "leave volume." + field + " out, or leave volume.fileSystemId out so that the run"
                                    + " creates a file system"));
                }
            }
            return;
        }
        LustreDeploymentType type = volume.lustreDeploymentType();
        Integer throughput = volume.perUnitStorageThroughput();
        if (type.persistent() && throughput == null) {
            problems.add(new SpecProblem(
                    "/volume/perUnitStorageThroughput",
                    "is required for deploymentType " + type + " (MB/s per TiB of storage)",
                    "set volume.perUnitStorageThroughput to one of " + type.throughputs()));
        } else if (!type.persistent() && throughput != null) {
            problems.add(new SpecProblem(
                    "/volume/perUnitStorageThroughput",
                    "applies to PERSISTENT_1 and PERSISTENT_2 only; a " + type
                            + " file system's throughput is fixed (200 MB/s per TiB)",
                    "leave volume.perUnitStorageThroughput out, or set volume.deploymentType to PERSISTENT_1"
                            + " or PERSISTENT_2"));
        } else if (throughput != null && !type.throughputs().contains(throughput)) {
            problems.add(new SpecProblem(
                    "/volume/perUnitStorageThroughput",
                    "is " + throughput + ", which " + type + " does not offer",
                    "set it to one of " + type.throughputs()));
        }
        int capacity = volume.lustreStorageCapacityGiB();
        if (!type.validCapacity(capacity)) {
            problems.add(new SpecProblem(
                    "/volume/storageCapacityGiB",
                    "is " + capacity + " GiB; " + type + " file systems are " + type.capacityRule(),
                    "set it to " + type.validCapacityAtLeast(capacity)));
        }
        // Each S3 path is its own data repository association, which every deployment type but
        // SCRATCH_1 takes
        // (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateDataRepositoryAssociation.html).
        for (String field : List.of("s3ImportPath", "s3ExportPath")) {
            if (given(volume, field) && type == LustreDeploymentType.SCRATCH_1) {
                problems.add(new SpecProblem(
                        "/volume/" + field,
                        "links the file system to S3 through a data repository association, which SCRATCH_1"
                                + " file systems do not take",
                        "set volume.deploymentType to SCRATCH_2 (the default), PERSISTENT_1 or PERSISTENT_2, or leave"
                                + " volume." + field + " out"));
            }
        }
    }

    private static boolean given(VolumeSpec volume, String field) {
        return switch (field) {
            case "deploymentType" -> volume.deploymentType() != null;
            case "perUnitStorageThroughput" -> volume.perUnitStorageThroughput() != null;
            case "storageCapacityGiB" -> volume.storageCapacityGiB() != null;
            case "s3ImportPath" -> volume.s3ImportPath() != null;
            case "s3ExportPath" -> volume.s3ExportPath() != null;
            default -> throw new IllegalArgumentException(field);
        };
    }
}
