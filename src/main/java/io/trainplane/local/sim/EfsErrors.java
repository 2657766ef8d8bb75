package io.trainplane.local.sim;

import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.efs.model.BadRequestException;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.efs.model.FileSystemInUseException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;

/** EFS's errors: the modeled exception, its status, and EFS's error code (also in the exception's {@code errorCode}). */
final class EfsErrors {
    private final ServiceCalls calls;

    EfsErrors(ServiceCalls calls) {
        this.calls = calls;
    }

    AwsServiceException alreadyExists(String fileSystemId, String token) {
        return calls.error(FileSystemAlreadyExistsException.builder().errorCode("FileSystemAlreadyExists").fileSystemId(fileSystemId),
                409, "FileSystemAlreadyExists", "File system '" + fileSystemId + "' already exists with creation token '" + token + "'");
    }

    AwsServiceException fileSystemNotFound(String fileSystemId) {
        return calls.error(FileSystemNotFoundException.builder().errorCode("FileSystemNotFound"), 404, "FileSystemNotFound",
                "File system '" + fileSystemId + "' does not exist.");
    }

    AwsServiceException inUse(String fileSystemId) {
        return calls.error(FileSystemInUseException.builder().errorCode("FileSystemInUse"), 409, "FileSystemInUse",
                "File system '" + fileSystemId + "' has mount targets and cannot be deleted.");
    }

    AwsServiceException notAvailable(String fileSystemId, String state) {
        return calls.error(IncorrectFileSystemLifeCycleStateException.builder().errorCode("IncorrectFileSystemLifeCycleState"), 409,
                "IncorrectFileSystemLifeCycleState", "File system '" + fileSystemId + "' is in state '" + state
                        + "'; mount targets can be created only when it is 'available'.");
    }

    AwsServiceException mountTargetConflict(String fileSystemId, String subnetId) {
        return calls.error(MountTargetConflictException.builder().errorCode("MountTargetConflict"), 409, "MountTargetConflict",
                "mount target already exists in this AZ (file system '" + fileSystemId + "', subnet '" + subnetId + "')");
    }

    AwsServiceException mountTargetNotFound(String mountTargetId) {
        return calls.error(MountTargetNotFoundException.builder().errorCode("MountTargetNotFound"), 404, "MountTargetNotFound",
                "Mount target '" + mountTargetId + "' does not exist.");
    }

    AwsServiceException badRequest(String message) {
        return calls.error(BadRequestException.builder().errorCode("BadRequest"), 400, "BadRequest", message);
    }
}
