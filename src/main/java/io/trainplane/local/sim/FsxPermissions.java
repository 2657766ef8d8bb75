package io.trainplane.local.sim;

import static io.trainplane.local.sim.IamRequests.list;
import static io.trainplane.local.sim.IamRequests.on;
import static io.trainplane.local.sim.IamRequests.tagging;
import static io.trainplane.local.sim.IamRequests.untagging;

import io.trainplane.local.iam.IamRequest;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.services.fsx.model.CreateDataRepositoryAssociationRequest;
import software.amazon.awssdk.services.fsx.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.fsx.model.DescribeDataRepositoryAssociationsRequest;
import software.amazon.awssdk.services.fsx.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.fsx.model.ListTagsForResourceRequest;
import software.amazon.awssdk.services.fsx.model.TagResourceRequest;
import software.amazon.awssdk.services.fsx.model.UntagResourceRequest;

/**
 * FSx's actions (prefix {@code fsx}), resources and condition keys
 * (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonfsx.html). A
 * create with tags also needs fsx:TagResource on the new file system; FSx creates its
 * service-linked role on the first file system of an account with the caller's
 * iam:CreateServiceLinkedRole (https://docs.aws.amazon.com/fsx/latest/LustreGuide/using-service-linked-roles.html);
 * a file system linked to S3 needs the caller's iam:CreateServiceLinkedRole, iam:AttachRolePolicy
 * and iam:PutRolePolicy on the S3 data source's service-linked role, and the caller's S3 access to
 * the bucket (https://docs.aws.amazon.com/fsx/latest/LustreGuide/setting-up.html#fsx-adding-permissions-s3).
 * The twin asks for the service-linked roles on every create (stricter than AWS, which asks once).
 */
final class FsxPermissions implements Permissions {
    private static final String FSX = IamRequests.ARN + "fsx:" + IamRequests.REGIONAL + "file-system/";
    private static final String ASSOCIATION = IamRequests.ARN + "fsx:" + IamRequests.REGIONAL + "association/";
    private static final String IAM = IamRequests.ARN + "iam::" + AwsService.ACCOUNT + ":role/aws-service-role/";
    private final SimulatedFsx fsx;

    FsxPermissions(SimulatedFsx fsx) {
        this.fsx = fsx;
    }

    @Override
    public List<IamRequest> of(String operation, SdkRequest request) {
        return switch (request) {
            case CreateFileSystemRequest r -> {
                Map<String, String> tags = new TreeMap<>();
                r.tags().forEach(t -> tags.put(t.key(), t.value()));
                String newFileSystem = FSX + "fs-00000000000000000";
                var asked = list(
                        tagging("fsx:CreateFileSystem", newFileSystem, null, tags),
                        IamRequest.of(
                                        "iam:CreateServiceLinkedRole",
                                        IAM + "fsx.amazonaws.com/AWSServiceRoleForAmazonFSx")
                                .with("iam:AWSServiceName", "fsx.amazonaws.com"));
                if (!tags.isEmpty()) {
                    asked.add(tagging("fsx:TagResource", newFileSystem, null, tags));
                }
                yield asked;
            }
            // https://docs.aws.amazon.com/fsx/latest/LustreGuide/setting-up.html (permissions to use
            // data repositories in Amazon S3): the caller lets FSx make its S3 data-source role, and
            // itself holds what that role will do with the bucket.
            case CreateDataRepositoryAssociationRequest r -> {
                String fileSystem = FSX + r.fileSystemId();
                var asked = list(
                        on("fsx:CreateDataRepositoryAssociation", fileSystem, fsx.tagsOrNull(r.fileSystemId())),
                        IamRequest.of(
                                "fsx:CreateDataRepositoryAssociation",
                                ASSOCIATION + r.fileSystemId() + "/dra-00000000000000000"));
                String dataSourceRole = IAM + "s3.data-source.lustre.fsx.amazonaws.com/AWSServiceRoleForFSxS3Access_"
                        + r.fileSystemId();
                asked.add(IamRequest.of("iam:CreateServiceLinkedRole", dataSourceRole)
                        .with("iam:AWSServiceName", "s3.data-source.lustre.fsx.amazonaws.com"));
                asked.add(IamRequest.of("iam:AttachRolePolicy", dataSourceRole));
                asked.add(IamRequest.of("iam:PutRolePolicy", dataSourceRole));
                if (r.dataRepositoryPath() != null && r.dataRepositoryPath().startsWith("s3://")) {
                    String bucket = SimulatedFsx.bucket(r.dataRepositoryPath());
                    asked.add(IamRequest.of("s3:ListBucket", "arn:aws:s3:::" + bucket));
                    asked.add(IamRequest.of("s3:GetObject", "arn:aws:s3:::" + bucket + "/*"));
                    asked.add(IamRequest.of("s3:PutObject", "arn:aws:s3:::" + bucket + "/*"));
                }
                yield asked;
            }
            case DescribeDataRepositoryAssociationsRequest r ->
                list(IamRequest.of("fsx:DescribeDataRepositoryAssociations", "*"));
            // fsx:DescribeFileSystems has no resource type (Service Authorization Reference, Amazon FSx):
            // asked of "*", whichever file systems the request names.
            case DescribeFileSystemsRequest r -> list(IamRequest.of("fsx:DescribeFileSystems", "*"));
            case DeleteFileSystemRequest r ->
                list(on("fsx:DeleteFileSystem", FSX + r.fileSystemId(), fsx.tagsOrNull(r.fileSystemId())));
            case TagResourceRequest r -> {
                Map<String, String> tags = new TreeMap<>();
                r.tags().forEach(t -> tags.put(t.key(), t.value()));
                yield list(tagging("fsx:TagResource", r.resourceARN(), tagsOfArn(r.resourceARN()), tags));
            }
            case UntagResourceRequest r ->
                list(untagging("fsx:UntagResource", r.resourceARN(), tagsOfArn(r.resourceARN()), r.tagKeys()));
            case ListTagsForResourceRequest r ->
                list(on("fsx:ListTagsForResource", r.resourceARN(), tagsOfArn(r.resourceARN())));
            default -> Permissions.unmapped(operation);
        };
    }

    private Map<String, String> tagsOfArn(String arn) {
        return arn != null && arn.startsWith(FSX) ? fsx.tagsOrNull(arn.substring(FSX.length())) : null;
    }
}
