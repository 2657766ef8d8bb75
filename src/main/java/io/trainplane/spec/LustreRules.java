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
        String importPath = volume.s3ImportPath();
        String exportPath = volume.s3ExportPath();
        if (exportPath != null && importPath == null) {
            problems.add(new SpecProblem(
                    "/volume/s3ExportPath",
                    "needs volume.s3ImportPath: FSx exports to the bucket the file system is linked to",
                    "add volume.s3ImportPath (s3://bucket/prefix), or leave volume.s3ExportPath out"));
        } else if (exportPath != null && !bucket(exportPath).equals(bucket(importPath))) {
            problems.add(new SpecProblem(
                    "/volume/s3ExportPath",
                    "is in bucket " + bucket(exportPath) + ", but the file system is linked to bucket "
                            + bucket(importPath) + " (volume.s3ImportPath); FSx exports only to that bucket",
                    "use a prefix of s3://" + bucket(importPath) + "/ for volume.s3ExportPath"));
        }
        if (importPath != null && type == LustreDeploymentType.PERSISTENT_2) {
            // PERSISTENT_2 links S3 only through data repository associations, made after the file
            // system (https://docs.aws.amazon.com/fsx/latest/LustreGuide/create-dra-linked-data-repo.html):
            // the run links at creation (ImportPath/ExportPath), which the other types take.
            problems.add(new SpecProblem(
                    "/volume/s3ImportPath",
                    "links S3 at creation, which PERSISTENT_2 does not take (it links through data repository"
                            + " associations, which runs do not create yet)",
                    "set volume.deploymentType to SCRATCH_2 or PERSISTENT_1, or leave volume.s3ImportPath out"));
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

    /** The bucket of an {@code s3://bucket/prefix} URI. */
    static String bucket(String s3Uri) {
        String rest = s3Uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        return slash < 0 ? rest : rest.substring(0, slash);
    }
}
