package io.trainplane.aws.efs;

import io.trainplane.aws.RunTags;
import io.trainplane.spec.Names;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsRequest;
import software.amazon.awssdk.services.efs.model.ModifyMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.PerformanceMode;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.efs.model.ThroughputMode;

/**
 * The EFS requests of a run, as pure functions of its names: {@code trainplane plan} prints them
 * and unit tests check them without an endpoint. {@link EfsVolumes} sends them.
 */
public final class EfsRequests {
    /** The tag EFS shows as the file system's name in the console. */
    public static final String NAME_TAG = "Name";

    private EfsRequests() {}

    /**
     * The run's file system: encrypted at rest, general purpose, elastic throughput (pays for what
     * the training reads, no provisioning), tagged with the run. The creation token makes a second
     * create of the same run answer FileSystemAlreadyExists with the first one's id.
     */
    public static CreateFileSystemRequest createFileSystem(Names names, RunTags runTags) {
        return CreateFileSystemRequest.builder()
                .creationToken(names.efsCreationToken())
                .encrypted(true)
                .performanceMode(PerformanceMode.GENERAL_PURPOSE)
                .throughputMode(ThroughputMode.ELASTIC)
                .tags(tags(names, runTags))
                .build();
    }

    /** Name first, then the run's tags in key order (the same list on every attempt). */
    public static List<Tag> tags(Names names, RunTags runTags) {
        List<Tag> tags = new ArrayList<>();
        tags.add(Tag.builder().key(NAME_TAG).value(fileSystemName(names)).build());
        for (Map.Entry<String, String> tag : runTags.asMap().entrySet()) {
            tags.add(Tag.builder().key(tag.getKey()).value(tag.getValue()).build());
        }
        return List.copyOf(tags);
    }

    /** The file system's Name tag: the same text as its creation token. */
    public static String fileSystemName(Names names) {
        return names.efsCreationToken();
    }

    public static CreateMountTargetRequest createMountTarget(
            String fileSystemId, String subnetId, List<String> securityGroupIds) {
        return CreateMountTargetRequest.builder()
                .fileSystemId(fileSystemId)
                .subnetId(subnetId)
                .securityGroups(securityGroupIds.isEmpty() ? null : List.copyOf(securityGroupIds))
                .build();
    }

    public static DescribeFileSystemsRequest describeFileSystem(String fileSystemId) {
        return DescribeFileSystemsRequest.builder().fileSystemId(fileSystemId).build();
    }

    public static DescribeFileSystemsRequest describeByCreationToken(String creationToken) {
        return DescribeFileSystemsRequest.builder().creationToken(creationToken).build();
    }

    /** One page of the file system's mount targets; {@code marker} is null for the first. */
    public static DescribeMountTargetsRequest describeMountTargets(String fileSystemId, String marker) {
        return DescribeMountTargetsRequest.builder()
                .fileSystemId(fileSystemId)
                .marker(marker)
                .build();
    }

    public static DescribeMountTargetSecurityGroupsRequest describeMountTargetSecurityGroups(String mountTargetId) {
        return DescribeMountTargetSecurityGroupsRequest.builder()
                .mountTargetId(mountTargetId)
                .build();
    }

    /** Replaces all the mount target's groups with {@code securityGroupIds} (EFS has no "add one"). */
    public static ModifyMountTargetSecurityGroupsRequest modifyMountTargetSecurityGroups(
            String mountTargetId, List<String> securityGroupIds) {
        return ModifyMountTargetSecurityGroupsRequest.builder()
                .mountTargetId(mountTargetId)
                .securityGroups(List.copyOf(securityGroupIds))
                .build();
    }

    public static DeleteMountTargetRequest deleteMountTarget(String mountTargetId) {
        return DeleteMountTargetRequest.builder().mountTargetId(mountTargetId).build();
    }

    public static DeleteFileSystemRequest deleteFileSystem(String fileSystemId) {
        return DeleteFileSystemRequest.builder().fileSystemId(fileSystemId).build();
    }
}
