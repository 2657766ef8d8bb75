package io.trainplane.local.sim;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.efs.model.AvailabilityZonesMismatchException;
import software.amazon.awssdk.services.efs.model.BadRequestException;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.efs.model.FileSystemInUseException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.IncorrectMountTargetStateException;
import software.amazon.awssdk.services.efs.model.IpAddressInUseException;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.NoFreeAddressesInSubnetException;
import software.amazon.awssdk.services.efs.model.SecurityGroupLimitExceededException;
import software.amazon.awssdk.services.efs.model.SecurityGroupNotFoundException;
import software.amazon.awssdk.services.efs.model.SubnetNotFoundException;

/**
 * EFS's errors: the modeled exception, its status, and EFS's error code (also in the exception's
 * {@code errorCode}). Statuses and meanings from the API reference's error lists
 * (https://docs.aws.amazon.com/efs/latest/ug/API_CreateMountTarget.html#API_CreateMountTarget_Errors,
 * https://docs.aws.amazon.com/efs/latest/ug/API_ModifyMountTargetSecurityGroups.html#API_ModifyMountTargetSecurityGroups_Errors);
 * messages as EFS words them where it is known.
 */
final class EfsErrors {
    private final ServiceCalls calls;

    EfsErrors(ServiceCalls calls) {
        this.calls = calls;
    }

    AwsServiceException alreadyExists(String fileSystemId, String token) {
        return calls.error(
                FileSystemAlreadyExistsException.builder()
                        .errorCode("FileSystemAlreadyExists")
                        .fileSystemId(fileSystemId),
                409,
                "FileSystemAlreadyExists",
                "File system '" + fileSystemId + "' already exists with creation token '" + token + "'");
    }

    AwsServiceException fileSystemNotFound(String fileSystemId) {
        return calls.error(
                FileSystemNotFoundException.builder().errorCode("FileSystemNotFound"),
                404,
                "FileSystemNotFound",
                "File system '" + fileSystemId + "' does not exist.");
    }

    AwsServiceException inUse(String fileSystemId) {
        return calls.error(
                FileSystemInUseException.builder().errorCode("FileSystemInUse"),
                409,
                "FileSystemInUse",
                "File system '" + fileSystemId + "' has mount targets and cannot be deleted.");
    }

    AwsServiceException notAvailable(String fileSystemId, String state) {
        return calls.error(
                IncorrectFileSystemLifeCycleStateException.builder().errorCode("IncorrectFileSystemLifeCycleState"),
                409,
                "IncorrectFileSystemLifeCycleState",
                "File system '" + fileSystemId + "' is in state '" + state
                        + "'; mount targets can be created only when it is 'available'.");
    }

    /** EFS's own words (seen in https://github.com/hashicorp/terraform-provider-aws/issues/2525). */
    AwsServiceException mountTargetInZone() {
        return calls.error(
                MountTargetConflictException.builder().errorCode("MountTargetConflict"),
                409,
                "MountTargetConflict",
                "mount target already exists in this AZ");
    }

    /** EFS's own words (seen in https://github.com/awslabs/deeplearning-cfn/issues/19). */
    AwsServiceException mountTargetInOtherVpc() {
        return calls.error(
                MountTargetConflictException.builder().errorCode("MountTargetConflict"),
                409,
                "MountTargetConflict",
                "requested subnet for new mount target is not in the same VPC as existing mount targets");
    }

    AwsServiceException subnetNotFound(String subnetId) {
        return calls.error(
                SubnetNotFoundException.builder().errorCode("SubnetNotFound"),
                400,
                "SubnetNotFound",
                "The subnet ID '" + subnetId + "' does not exist");
    }

    AwsServiceException securityGroupNotFound(String groupId) {
        return calls.error(
                SecurityGroupNotFoundException.builder().errorCode("SecurityGroupNotFound"),
                400,
                "SecurityGroupNotFound",
                "The security group '" + groupId + "' does not exist");
    }

    /** EFS's own words (seen in https://github.com/jupyter-infra/jupyter-deploy/issues/375). */
    AwsServiceException securityGroupInOtherVpc() {
        return calls.error(
                SecurityGroupNotFoundException.builder().errorCode("SecurityGroupNotFound"),
                400,
                "SecurityGroupNotFound",
                "You have specified two resources that belong to different networks.");
    }

    AwsServiceException securityGroupLimit(int given, int limit) {
        return calls.error(
                SecurityGroupLimitExceededException.builder().errorCode("SecurityGroupLimitExceeded"),
                400,
                "SecurityGroupLimitExceeded",
                given + " security groups given; a mount target takes at most " + limit);
    }

    AwsServiceException ipAddressInUse(String ip, String subnetId) {
        return calls.error(
                IpAddressInUseException.builder().errorCode("IpAddressInUse"),
                409,
                "IpAddressInUse",
                "IP address " + ip + " is already in use in subnet " + subnetId);
    }

    AwsServiceException zonesMismatch(String subnetId, String zone) {
        return calls.error(
                AvailabilityZonesMismatchException.builder().errorCode("AvailabilityZonesMismatch"),
                400,
                "AvailabilityZonesMismatch",
                "Subnet " + subnetId + " is not in the file system's Availability Zone " + zone);
    }

    AwsServiceException noFreeAddresses(String subnetId) {
        return calls.error(
                NoFreeAddressesInSubnetException.builder().errorCode("NoFreeAddressesInSubnet"),
                409,
                "NoFreeAddressesInSubnet",
                "Subnet " + subnetId + " has no free IP address");
    }

    AwsServiceException mountTargetState(String mountTargetId, String state) {
        return calls.error(
                IncorrectMountTargetStateException.builder().errorCode("IncorrectMountTargetState"),
                409,
                "IncorrectMountTargetState",
                "Mount target '" + mountTargetId + "' is in state '" + state + "'");
    }

    AwsServiceException mountTargetNotFound(String mountTargetId) {
        return calls.error(
                MountTargetNotFoundException.builder().errorCode("MountTargetNotFound"),
                404,
                "MountTargetNotFound",
                "Mount target '" + mountTargetId + "' does not exist.");
    }

    AwsServiceException badRequest(String message) {
        return calls.error(BadRequestException.builder().errorCode("BadRequest"), 400, "BadRequest", message);
    }
}
