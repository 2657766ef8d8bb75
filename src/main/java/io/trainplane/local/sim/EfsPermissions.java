package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.tagging;
import static io.trainplane.local.sim.IamRequests.taggingOnCreate;
import static io.trainplane.local.sim.IamRequests.untagging;

import io.trainplane.local.iam.IamRequest;
import io.trainplane.local.sim.EfsRecords.FileSystemRecord;
import io.trainplane.local.sim.EfsRecords.MountTargetRecord;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsRequest;
import software.amazon.awssdk.services.efs.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.efs.model.ModifyMountTargetSecurityGroupsRequest;
import software.amazon.awssdk.services.efs.model.TagResourceRequest;
import software.amazon.awssdk.services.efs.model.UntagResourceRequest;

/**
 * EFS's actions (prefix {@code elasticfilesystem}), resources and condition keys
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonelasticfilesystem.html).
 * Mount targets are not IAM resources: their actions act on the file system. CreateMountTarget and
 * DeleteMountTarget also need the caller's EC2 permissions for the mount target's network
 * interface (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html,
 * https://docs.aws.amazon.com/efs/latest/ug/API_DeleteMountTarget.html); a create with tags needs
 * elasticfilesystem:TagResource with {@code elasticfilesystem:CreateAction}
 * (https://docs.aws.amazon.com/efs/latest/ug/using-tags-efs.html).
 */
final class EfsPermissions implements Permissions {
    private static final String EFS = IamRequests.ARN + "elasticfilesystem:" + IamRequests.REGIONAL + "file-system/";
    private static final String EC2 = IamRequests.ARN + "ec2:" + IamRequests.REGIONAL;
    private final SimulatedEfs efs;

    EfsPermissions(SimulatedEfs efs) {
        this.efs = efs;
    }

    @Override
    public List<IamRequest> of(String operation, SdkRequest request) {
        synchronized (efs) {
            return switch (request) {
                case CreateFileSystemRequest r -> {
                    Map<String, String> tags = new TreeMap<>();
                    r.tags().forEach(t -> tags.put(t.key(), t.value()));
                    var asked = list(tagging("elasticfilesystem:CreateFileSystem", "*", null, tags)
                            .with("elasticfilesystem:Encrypted", String.valueOf(Boolean.TRUE.equals(r.encrypted()))));
                    // The id is EFS's to give: a stand-in names the new file system.
                    taggingOnCreate("elasticfilesystem:TagResource", EFS + "fs-00000000000000000", tags)
                            .forEach(tag -> asked.add(tag.with("elasticfilesystem:CreateAction", "CreateFileSystem")));
                    yield asked;
                }
                case DescribeFileSystemsRequest r ->
                    list(
                            r.fileSystemId() == null
                                    ? IamRequest.of("elasticfilesystem:DescribeFileSystems", "*")
                                    : onFileSystem("elasticfilesystem:DescribeFileSystems", r.fileSystemId()));
                case DeleteFileSystemRequest r ->
                    list(onFileSystem("elasticfilesystem:DeleteFileSystem", r.fileSystemId()));
                case CreateMountTargetRequest r -> {
                    var asked = list(
                            onFileSystem("elasticfilesystem:CreateMountTarget", r.fileSystemId()),
                            IamRequest.of("ec2:DescribeSubnets", "*"),
                            IamRequest.of("ec2:DescribeNetworkInterfaces", "*"),
                            IamRequest.of("ec2:CreateNetworkInterface", EC2 + "network-interface/eni-00000000000000000")
                                    .with("ec2:Subnet", EC2 + "subnet/" + r.subnetId()),
                            IamRequest.of("ec2:CreateNetworkInterface", EC2 + "subnet/" + r.subnetId()));
                    r.securityGroups()
                            .forEach(group -> asked.add(
                                    IamRequest.of("ec2:CreateNetworkInterface", EC2 + "security-group/" + group)));
                    yield asked;
                }
                case DescribeMountTargetsRequest r ->
                    list(onFileSystem(
                            "elasticfilesystem:DescribeMountTargets",
                            r.fileSystemId() != null ? r.fileSystemId() : fileSystemOf(r.mountTargetId())));
                case DeleteMountTargetRequest r -> {
                    MountTargetRecord mt = efs.mountTargetOrNull(r.mountTargetId());
                    var asked =
                            list(onFileSystem("elasticfilesystem:DeleteMountTarget", fileSystemOf(r.mountTargetId())));
                    if (mt != null) {
                        asked.add(IamRequest.of(
                                        "ec2:DeleteNetworkInterface",
                                        EC2 + "network-interface/" + mt.networkInterfaceId)
                                .with("ec2:Subnet", EC2 + "subnet/" + mt.subnet.id()));
                    }
                    yield asked;
                }
                // https://docs.aws.amazon.com/efs/latest/ug/API_DescribeMountTargetSecurityGroups.html: also
                // ec2:DescribeNetworkInterfaceAttribute, which has no resource type.
                case DescribeMountTargetSecurityGroupsRequest r ->
                    list(
                            onFileSystem(
                                    "elasticfilesystem:DescribeMountTargetSecurityGroups",
                                    fileSystemOf(r.mountTargetId())),
                            IamRequest.of("ec2:DescribeNetworkInterfaceAttribute", "*"));
                case ModifyMountTargetSecurityGroupsRequest r -> {
                    // https://docs.aws.amazon.com/efs/latest/ug/API_ModifyMountTargetSecurityGroups.html: also
                    // ec2:ModifyNetworkInterfaceAttribute on the mount target's network interface.
                    MountTargetRecord mt = efs.mountTargetOrNull(r.mountTargetId());
                    var asked = list(onFileSystem(
                            "elasticfilesystem:ModifyMountTargetSecurityGroups", fileSystemOf(r.mountTargetId())));
                    if (mt != null) {
                        asked.add(IamRequest.of(
                                        "ec2:ModifyNetworkInterfaceAttribute",
                                        EC2 + "network-interface/" + mt.networkInterfaceId)
                                .with("ec2:Subnet", EC2 + "subnet/" + mt.subnet.id()));
                    }
                    yield asked;
                }
                case TagResourceRequest r -> {
                    Map<String, String> tags = new TreeMap<>();
                    r.tags().forEach(t -> tags.put(t.key(), t.value()));
                    yield list(tagging(
                            "elasticfilesystem:TagResource", EFS + r.resourceId(), tagsOf(r.resourceId()), tags));
                }
                case UntagResourceRequest r ->
                    list(untagging(
                            "elasticfilesystem:UntagResource",
                            EFS + r.resourceId(),
                            tagsOf(r.resourceId()),
                            r.tagKeys()));
                case ListTagsForResourceRequest r ->
                    list(on("elasticfilesystem:ListTagsForResource", EFS + r.resourceId(), tagsOf(r.resourceId())));
                default -> Permissions.unmapped(operation);
            };
        }
    }

    private IamRequest onFileSystem(String action, String id) {
        return on(action, EFS + (id == null ? "*" : id), tagsOf(id));
    }

    private Map<String, String> tagsOf(String fileSystemId) {
        FileSystemRecord fs = fileSystemId == null ? null : efs.fileSystemOrNull(fileSystemId);
        return fs == null ? null : fs.tags;
    }

    private String fileSystemOf(String mountTargetId) {
        MountTargetRecord mt = mountTargetId == null ? null : efs.mountTargetOrNull(mountTargetId);
        return mt == null ? null : mt.fileSystemId();
    }
}
