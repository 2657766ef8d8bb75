package io.trainplane.aws.efs;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.CreateFileSystemRequest;
import software.amazon.awssdk.services.efs.model.CreateFileSystemResponse;
import software.amazon.awssdk.services.efs.model.CreateMountTargetRequest;
import software.amazon.awssdk.services.efs.model.CreateMountTargetResponse;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemRequest;
import software.amazon.awssdk.services.efs.model.DeleteFileSystemResponse;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetRequest;
import software.amazon.awssdk.services.efs.model.DeleteMountTargetResponse;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsRequest;
import software.amazon.awssdk.services.efs.model.DescribeFileSystemsResponse;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsRequest;
import software.amazon.awssdk.services.efs.model.DescribeMountTargetsResponse;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.FileSystemInUseException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;

/**
 * A small in-memory EFS behind the SDK interface, with the lifecycles real EFS has and moto does
 * not (file systems and mount targets are "creating" and "deleting" until {@link #settle()}), the
 * FileSystemAlreadyExists error carrying the id, pages of one mount target, and scripted errors.
 * Written by hand against {@link EfsClient}: no mocking library.
 */
final class ScriptedEfs implements EfsClient {
    private final Map<String, FileSystemDescription> fileSystems = new LinkedHashMap<>();
    private final Map<String, MountTargetDescription> mountTargets = new LinkedHashMap<>();
    private final Map<String, Queue<RuntimeException>> faults = new HashMap<>();
    final List<String> calls = new ArrayList<>();
    private int next;

    /** The next call of {@code operation} ("CreateMountTarget", …) throws {@code error}. */
    ScriptedEfs failNext(String operation, RuntimeException error) {
        faults.computeIfAbsent(operation, k -> new ArrayDeque<>()).add(error);
        return this;
    }

    String fileSystem(String token, LifeCycleState state) {
        String id = "fs-" + (++next);
        fileSystems.put(
                id,
                FileSystemDescription.builder()
                        .fileSystemId(id)
                        .creationToken(token)
                        .lifeCycleState(state)
                        .build());
        return id;
    }

    String mountTarget(String fileSystemId, String subnetId, LifeCycleState state) {
        String id = "fsmt-" + (++next);
        mountTargets.put(
                id,
                MountTargetDescription.builder()
                        .mountTargetId(id)
                        .fileSystemId(fileSystemId)
                        .subnetId(subnetId)
                        .lifeCycleState(state)
                        .build());
        return id;
    }

    /** Time passes: creating becomes available, deleting becomes gone. */
    void settle() {
        fileSystems.replaceAll((id, fs) -> fs.lifeCycleState() == LifeCycleState.CREATING
                ? fs.toBuilder().lifeCycleState(LifeCycleState.AVAILABLE).build()
                : fs);
        fileSystems.values().removeIf(fs -> fs.lifeCycleState() == LifeCycleState.DELETING);
        mountTargets.replaceAll((id, mt) -> mt.lifeCycleState() == LifeCycleState.CREATING
                ? mt.toBuilder().lifeCycleState(LifeCycleState.AVAILABLE).build()
                : mt);
        mountTargets.values().removeIf(mt -> mt.lifeCycleState() == LifeCycleState.DELETING);
    }

    private void call(String operation) {
        calls.add(operation);
        Queue<RuntimeException> queued = faults.get(operation);
        if (queued != null && !queued.isEmpty()) {
            throw queued.remove();
        }
    }

    @Override
    public CreateFileSystemResponse createFileSystem(CreateFileSystemRequest request) {
        call("CreateFileSystem");
        for (FileSystemDescription fs : fileSystems.values()) {
            if (fs.creationToken().equals(request.creationToken())) {
                throw FileSystemAlreadyExistsException.builder()
                        .fileSystemId(fs.fileSystemId())
                        .message("File system '" + fs.fileSystemId() + "' already exists with creation token")
                        .build();
            }
        }
        String id = fileSystem(request.creationToken(), LifeCycleState.CREATING);
        fileSystems.computeIfPresent(
                id, (k, fs) -> fs.toBuilder().tags(request.tags()).build());
        return CreateFileSystemResponse.builder()
                .fileSystemId(id)
                .lifeCycleState(LifeCycleState.CREATING)
                .build();
    }

    @Override
    public DescribeFileSystemsResponse describeFileSystems(DescribeFileSystemsRequest request) {
        call("DescribeFileSystems");
        if (request.fileSystemId() != null) {
            FileSystemDescription fs = fileSystems.get(request.fileSystemId());
            if (fs == null) {
                throw FileSystemNotFoundException.builder()
                        .message("File system does not exist.")
                        .build();
            }
            return DescribeFileSystemsResponse.builder().fileSystems(fs).build();
        }
        return DescribeFileSystemsResponse.builder()
                .fileSystems(fileSystems.values().stream()
                        .filter(fs -> fs.creationToken().equals(request.creationToken()))
                        .toList())
                .build();
    }

    @Override
    public CreateMountTargetResponse createMountTarget(CreateMountTargetRequest request) {
        call("CreateMountTarget");
        FileSystemDescription fs = fileSystems.get(request.fileSystemId());
        if (fs == null) {
            throw FileSystemNotFoundException.builder()
                    .message("File system does not exist.")
                    .build();
        }
        if (fs.lifeCycleState() != LifeCycleState.AVAILABLE) {
            throw IncorrectFileSystemLifeCycleStateException.builder()
                    .message("File system is not available")
                    .build();
        }
        if (mountTargets.values().stream().anyMatch(mt -> mt.subnetId().equals(request.subnetId()))) {
            throw MountTargetConflictException.builder()
                    .message("mount target already exists in this AZ")
                    .build();
        }
        String id = mountTarget(request.fileSystemId(), request.subnetId(), LifeCycleState.CREATING);
        return CreateMountTargetResponse.builder()
                .mountTargetId(id)
                .subnetId(request.subnetId())
                .lifeCycleState(LifeCycleState.CREATING)
                .build();
    }

    /** One mount target per page: the marker is the index of the next one. */
    @Override
    public DescribeMountTargetsResponse describeMountTargets(DescribeMountTargetsRequest request) {
        call("DescribeMountTargets");
        if (!fileSystems.containsKey(request.fileSystemId())) {
            throw FileSystemNotFoundException.builder()
                    .message("File system does not exist.")
                    .build();
        }
        List<MountTargetDescription> all = mountTargets.values().stream()
                .filter(mt -> mt.fileSystemId().equals(request.fileSystemId()))
                .toList();
        int index = request.marker() == null ? 0 : Integer.parseInt(request.marker());
        return DescribeMountTargetsResponse.builder()
                .mountTargets(all.subList(Math.min(index, all.size()), Math.min(index + 1, all.size())))
                .nextMarker(index + 1 < all.size() ? String.valueOf(index + 1) : null)
                .build();
    }

    @Override
    public DeleteMountTargetResponse deleteMountTarget(DeleteMountTargetRequest request) {
        call("DeleteMountTarget");
        MountTargetDescription mt = mountTargets.get(request.mountTargetId());
        if (mt == null) {
            throw MountTargetNotFoundException.builder()
                    .message("Mount target does not exist.")
                    .build();
        }
        mountTargets.put(
                mt.mountTargetId(),
                mt.toBuilder().lifeCycleState(LifeCycleState.DELETING).build());
        return DeleteMountTargetResponse.builder().build();
    }

    @Override
    public DeleteFileSystemResponse deleteFileSystem(DeleteFileSystemRequest request) {
        call("DeleteFileSystem");
        FileSystemDescription fs = fileSystems.get(request.fileSystemId());
        if (fs == null) {
            throw FileSystemNotFoundException.builder()
                    .message("File system does not exist.")
                    .build();
        }
        if (mountTargets.values().stream().anyMatch(mt -> mt.fileSystemId().equals(fs.fileSystemId()))) {
            throw FileSystemInUseException.builder()
                    .message("File system is in use.")
                    .build();
        }
        if (fs.lifeCycleState() != LifeCycleState.AVAILABLE) {
            throw IncorrectFileSystemLifeCycleStateException.builder()
                    .message("File system is not available")
                    .build();
        }
        fileSystems.put(
                fs.fileSystemId(),
                fs.toBuilder().lifeCycleState(LifeCycleState.DELETING).build());
        return DeleteFileSystemResponse.builder().build();
    }

    @Override
    public String serviceName() {
        return SERVICE_NAME;
    }

    @Override
    public void close() {}
}
