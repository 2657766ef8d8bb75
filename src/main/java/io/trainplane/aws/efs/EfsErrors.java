package io.trainplane.aws.efs;

import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import software.amazon.awssdk.services.efs.model.AvailabilityZonesMismatchException;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.efs.model.FileSystemLimitExceededException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.IncorrectMountTargetStateException;
import software.amazon.awssdk.services.efs.model.NetworkInterfaceLimitExceededException;
import software.amazon.awssdk.services.efs.model.NoFreeAddressesInSubnetException;
import software.amazon.awssdk.services.efs.model.SecurityGroupLimitExceededException;
import software.amazon.awssdk.services.efs.model.SecurityGroupNotFoundException;
import software.amazon.awssdk.services.efs.model.SubnetNotFoundException;
import software.amazon.awssdk.services.efs.model.UnsupportedAvailabilityZoneException;

/**
 * What an EFS error means for the run. The errors a user can act on become a
 * {@link TerminalException} saying what to do (the cause kept); a file system still being created
 * becomes a {@link TransientException}; everything else — throttling, 5xx, errors that would be a
 * bug in Trainplane's own requests — is returned unchanged for {@code Failures.classify}.
 */
final class EfsErrors {
    private EfsErrors() {}

    /**
     * @param subject what the request was about, for the message ("subnet subnet-1 of file
     *                system fs-1", "file system fs-1")
     */
    static RuntimeException translate(EfsException e, String subject) {
        return switch (e) {
            case FileSystemLimitExceededException x ->
                new TerminalException(
                        FailureReason.FileSystemLimitExceeded,
                        "the account has reached its quota of EFS file systems in this region: delete file systems"
                                + " that are no longer used, ask for a higher quota (Service Quotas, Amazon EFS), or set"
                                + " volume.fileSystemId to reuse an existing file system",
                        x);
            case NetworkInterfaceLimitExceededException x ->
                new TerminalException(
                        FailureReason.NetworkInterfaceLimitExceeded,
                        "the account has reached its quota of network interfaces in this region, so EFS cannot create"
                                + " the mount target for " + subject + ": delete unused network interfaces or ask for a"
                                + " higher quota (Service Quotas, Amazon VPC)",
                        x);
            case SubnetNotFoundException x ->
                new TerminalException(
                        FailureReason.SubnetNotFound,
                        subject + ": the subnet does not exist in this account and region; check the subnet ids the"
                                + " stack was deployed with (its cluster subnets parameter)",
                        x);
            case SecurityGroupNotFoundException x ->
                new TerminalException(
                        FailureReason.SecurityGroupNotFound,
                        subject + ": a security group does not exist, or is not in the subnet's VPC; check the"
                                + " security group ids the stack was deployed with",
                        x);
            case SecurityGroupLimitExceededException x ->
                new TerminalException(
                        FailureReason.SecurityGroupLimitExceeded,
                        subject + ": a mount target takes at most 5 security groups; give the stack fewer",
                        x);
            case NoFreeAddressesInSubnetException x ->
                new TerminalException(
                        FailureReason.NoFreeAddressesInSubnet,
                        subject + ": the subnet has no free IP address left for the mount target; free addresses in it"
                                + " or deploy the stack with a larger subnet",
                        x);
            case UnsupportedAvailabilityZoneException x ->
                new TerminalException(
                        FailureReason.UnsupportedAvailabilityZone,
                        subject + ": EFS is not available in the subnet's Availability Zone; use subnets in other"
                                + " zones",
                        x);
            case AvailabilityZonesMismatchException x ->
                new TerminalException(
                        FailureReason.AvailabilityZonesMismatch,
                        subject + ": the subnet is not in the file system's Availability Zone (a One Zone file system"
                                + " only takes a mount target in its own zone)",
                        x);
            case IncorrectMountTargetStateException x ->
                new TerminalException(
                        FailureReason.IncorrectMountTargetState,
                        subject + ": the mount target is not in a state that allows this; wait until it is available"
                                + " or deleted, then start the run again",
                        x);
            case FileSystemNotFoundException x ->
                new TerminalException(
                        FailureReason.FileSystemNotFound,
                        subject + ": the file system no longer exists (deleted outside the run?); start the run again",
                        x);
            case IncorrectFileSystemLifeCycleStateException x ->
                new TransientException("file system not available yet: " + subject, x);
            default -> e;
        };
    }
}
