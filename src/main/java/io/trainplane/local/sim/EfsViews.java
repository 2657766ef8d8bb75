package io.trainplane.local.sim;

import io.trainplane.local.sim.EfsRecords.FileSystemRecord;
import io.trainplane.local.sim.EfsRecords.MountTargetRecord;
import java.time.Instant;
import software.amazon.awssdk.services.efs.model.CreateFileSystemResponse;
import software.amazon.awssdk.services.efs.model.CreateMountTargetResponse;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.FileSystemProtectionDescription;
import software.amazon.awssdk.services.efs.model.FileSystemSize;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;
import software.amazon.awssdk.services.efs.model.PerformanceMode;
import software.amazon.awssdk.services.efs.model.ReplicationOverwriteProtection;
import software.amazon.awssdk.services.efs.model.Tag;
import software.amazon.awssdk.services.efs.model.ThroughputMode;

/** File systems and mount targets as DescribeFileSystems/DescribeMountTargets show them at an instant. */
final class EfsViews {
    private EfsViews() {}

    static LifeCycleState state(Lifecycle life, Instant now) {
        return switch (life.phase(now)) {
            case CREATING -> LifeCycleState.CREATING;
            case READY -> LifeCycleState.AVAILABLE;
            case DELETING -> LifeCycleState.DELETING;
            case GONE -> LifeCycleState.DELETED;
        };
    }

    static FileSystemDescription fileSystem(FileSystemRecord fs, int mountTargets, Instant now) {
        var r = fs.request;
        return FileSystemDescription.builder()
                .ownerId(AwsService.ACCOUNT)
                .creationToken(fs.creationToken)
                .fileSystemId(fs.id)
                .fileSystemArn(fs.arn())
                .creationTime(fs.life.createdAt())
                .lifeCycleState(state(fs.life, now))
                .name(fs.tags.get("Name"))
                .numberOfMountTargets(mountTargets)
                .sizeInBytes(FileSystemSize.builder()
                        .value(6144L)
                        .valueInStandard(6144L)
                        .timestamp(now)
                        .build())
                .performanceMode(r.performanceMode() == null ? PerformanceMode.GENERAL_PURPOSE : r.performanceMode())
                .encrypted(Boolean.TRUE.equals(r.encrypted()))
                .kmsKeyId(fs.kmsKeyId)
                .throughputMode(r.throughputMode() == null ? ThroughputMode.BURSTING : r.throughputMode())
                .provisionedThroughputInMibps(r.provisionedThroughputInMibps())
                .availabilityZoneName(r.availabilityZoneName())
                .tags(fs.tags.entrySet().stream()
                        .map(e -> Tag.builder()
                                .key(e.getKey())
                                .value(e.getValue())
                                .build())
                        .toList())
                .fileSystemProtection(FileSystemProtectionDescription.builder()
                        .replicationOverwriteProtection(ReplicationOverwriteProtection.ENABLED)
                        .build())
                .build();
    }

    static CreateFileSystemResponse created(FileSystemDescription d) {
        return CreateFileSystemResponse.builder()
                .ownerId(d.ownerId())
                .creationToken(d.creationToken())
                .fileSystemId(d.fileSystemId())
                .fileSystemArn(d.fileSystemArn())
                .creationTime(d.creationTime())
                .lifeCycleState(d.lifeCycleState())
                .name(d.name())
                .numberOfMountTargets(d.numberOfMountTargets())
                .sizeInBytes(d.sizeInBytes())
                .performanceMode(d.performanceMode())
                .encrypted(d.encrypted())
                .kmsKeyId(d.kmsKeyId())
                .throughputMode(d.throughputMode())
                .provisionedThroughputInMibps(d.provisionedThroughputInMibps())
                .availabilityZoneName(d.availabilityZoneName())
                .tags(d.tags())
                .fileSystemProtection(d.fileSystemProtection())
                .build();
    }

    static MountTargetDescription mountTarget(MountTargetRecord mt, Instant now) {
        return MountTargetDescription.builder()
                .ownerId(AwsService.ACCOUNT)
                .mountTargetId(mt.id)
                .fileSystemId(mt.fileSystemId())
                .subnetId(mt.subnet.id())
                .lifeCycleState(state(mt.life, now))
                .ipAddress(mt.ipAddress)
                .networkInterfaceId(mt.networkInterfaceId)
                .availabilityZoneName(mt.subnet.zoneName())
                .availabilityZoneId(mt.subnet.zoneId())
                .vpcId(mt.subnet.vpcId())
                .build();
    }

    static CreateMountTargetResponse created(MountTargetDescription d) {
        return CreateMountTargetResponse.builder()
                .ownerId(d.ownerId())
                .mountTargetId(d.mountTargetId())
                .fileSystemId(d.fileSystemId())
                .subnetId(d.subnetId())
                .lifeCycleState(d.lifeCycleState())
                .ipAddress(d.ipAddress())
                .networkInterfaceId(d.networkInterfaceId())
                .availabilityZoneName(d.availabilityZoneName())
                .availabilityZoneId(d.availabilityZoneId())
                .vpcId(d.vpcId())
                .build();
    }
}
