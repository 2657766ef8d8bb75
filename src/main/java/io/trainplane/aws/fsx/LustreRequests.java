package io.trainplane.aws.fsx;

import io.trainplane.aws.RunTags;
import io.trainplane.spec.Names;
import io.trainplane.spec.VolumeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemLustreConfiguration;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.LustreDeploymentType;
import software.amazon.awssdk.services.fsx.model.StorageType;
import software.amazon.awssdk.services.fsx.model.Tag;

/**
 * The FSx for Lustre requests of a run, as pure functions of its names and spec: {@code plan}
 * prints them, tests check them without an endpoint. {@link LustreVolumes} sends them.
 */
public final class LustreRequests {
    public static final String NAME_TAG = "Name";

    private LustreRequests() {}

    /**
     * The run's file system
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html): SSD storage of
     * the spec's deployment type and capacity in one subnet of the cluster, guarded by the cluster's
     * security group. Lustre needs inbound TCP 988 and 1018-1023 from the clients and between the
     * file system's own interfaces
     * (https://docs.aws.amazon.com/fsx/latest/LustreGuide/limit-access-security-groups.html): the
     * EKS cluster security group admits all traffic from its own members, which are the nodes and,
     * once created, the file system's interfaces. The ClientRequestToken makes a retry return the
     * same file system.
     *
     * <p>The S3 link: SCRATCH_1, SCRATCH_2 and PERSISTENT_1 take ImportPath/ExportPath at creation
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystemLustreConfiguration.html);
     * PERSISTENT_2 links only through data repository associations, which the spec refuses for now
     * (LustreRules). With an import path, AutoImportPolicy NEW_CHANGED_DELETED keeps the listing in
     * step with the bucket.
     */
    public static CreateFileSystemRequest createFileSystem(
            Names names, RunTags runTags, VolumeSpec volume, String subnetId, List<String> securityGroupIds) {
        CreateFileSystemLustreConfiguration.Builder lustre = CreateFileSystemLustreConfiguration.builder()
                .deploymentType(LustreDeploymentType.fromValue(
                        volume.lustreDeploymentType().name()));
        if (volume.perUnitStorageThroughput() != null) {
            lustre.perUnitStorageThroughput(volume.perUnitStorageThroughput());
        }
        if (volume.s3ImportPath() != null) {
            lustre.importPath(volume.s3ImportPath()).autoImportPolicy("NEW_CHANGED_DELETED");
        }
        if (volume.s3ExportPath() != null) {
            lustre.exportPath(volume.s3ExportPath());
        }
        return CreateFileSystemRequest.builder()
                .clientRequestToken(names.lustreRequestToken())
                .fileSystemType(FileSystemType.LUSTRE)
                .storageType(StorageType.SSD)
                .storageCapacity(volume.lustreStorageCapacityGiB())
                .subnetIds(subnetId)
                .securityGroupIds(securityGroupIds)
                .lustreConfiguration(lustre.build())
                .tags(tags(names, runTags))
                .build();
    }

    /** Name first (the request token), then the run's tags in key order. */
    public static List<Tag> tags(Names names, RunTags runTags) {
        List<Tag> tags = new ArrayList<>();
        tags.add(Tag.builder().key(NAME_TAG).value(names.lustreRequestToken()).build());
        for (Map.Entry<String, String> tag : runTags.asMap().entrySet()) {
            tags.add(Tag.builder().key(tag.getKey()).value(tag.getValue()).build());
        }
        return List.copyOf(tags);
    }

    public static DescribeFileSystemsRequest describe(String fileSystemId) {
        return DescribeFileSystemsRequest.builder().fileSystemIds(fileSystemId).build();
    }

    /** No final backup: the file system is the run's scratch space, its outputs are in S3. */
    public static DeleteFileSystemRequest delete(String fileSystemId) {
        return DeleteFileSystemRequest.builder().fileSystemId(fileSystemId).build();
    }
}
