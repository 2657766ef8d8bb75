package io.trainplane.aws.efs;

import io.trainplane.aws.ClusterNetwork;
import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.spec.Names;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.efs.model.FileSystemAlreadyExistsException;
import software.amazon.awssdk.services.efs.model.FileSystemDescription;
import software.amazon.awssdk.services.efs.model.FileSystemInUseException;
import software.amazon.awssdk.services.efs.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.efs.model.IncorrectFileSystemLifeCycleStateException;
import software.amazon.awssdk.services.efs.model.IncorrectMountTargetStateException;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetConflictException;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.Tag;

/**
 * The lifecycle of a run's EFS volume: the file system and one mount target in each Availability
 * Zone of the cluster's subnets.
 * Every method looks once and returns (the state machine waits between calls), and every method
 * can be called again with the same result: create finds what exists and creates only what is
 * missing, delete treats "not found" as done.
 *
 * <p><b>Adopted file systems</b> ({@code volume.fileSystemId} in the spec) are checked with
 * {@link #checkAdoptable} and may get mount targets from {@link #ensureMountTargets}, but the caller
 * never passes them to {@link #deleteMountTargets} or {@link #deleteFileSystem}: those delete
 * whatever they are given, including mount targets that other users of the file system rely on.
 * Mount targets cost nothing, so the ones a run adds to an adopted file system stay. The mount
 * targets an adopted file system already has carry the groups someone else gave them: the cluster's
 * group is added to them by {@link MountTargetSecurityGroups}.
 */
public final class EfsVolumes {
    private final EfsClient efs;

    public EfsVolumes(EfsClient efs) {
        this.efs = efs;
    }

    /**
     * Creates the run's file system, or finds the one an earlier attempt created (EFS answers a
     * second create with the same creation token with FileSystemAlreadyExists and that id). The
     * token is the run's name, which a run of another stack in the account (or anyone) may have
     * used too: a file system found so is the run's only when it carries the run's tags, else the
     * run stops there and neither uses nor deletes it.
     *
     * @return the file system id
     */
    public String createFileSystem(Names names, RunTags tags) {
        try {
            return efs.createFileSystem(EfsRequests.createFileSystem(names, tags))
                    .fileSystemId();
        } catch (FileSystemAlreadyExistsException e) {
            // Some implementations leave the id out of the error: look it up by its token.
            String id = e.fileSystemId() != null && !e.fileSystemId().isBlank()
                    ? e.fileSystemId()
                    : efs
                            .describeFileSystems(EfsRequests.describeByCreationToken(names.efsCreationToken()))
                            .fileSystems()
                            .stream()
                            .findFirst()
                            .map(FileSystemDescription::fileSystemId)
                            .orElseThrow(() -> new TransientException(
                                    "EFS reported file system " + names.efsCreationToken()
                                            + " as existing but does not list it yet",
                                    e));
            requireTheRuns(id, names, tags);
            return id;
        } catch (EfsException e) {
            throw EfsErrors.translate(e, "file system " + names.efsCreationToken());
        }
    }

    /** Refuses a file system with the run's creation token that another stack or run (or someone) made. */
    private void requireTheRuns(String id, Names names, RunTags tags) {
        Map<String, String> found = describe(id)
                .map(fs -> fs.tags().stream().collect(Collectors.toMap(Tag::key, Tag::value, (a, b) -> a)))
                .orElseThrow(() -> new TransientException(
                        "EFS reported file system " + id + " as existing but does not describe it yet"));
        if (!tags.on(found)) {
            throw new TerminalException(
                    FailureReason.FileSystemNotTheRuns,
                    "EFS answered the run's CreateFileSystem (creation token " + names.efsCreationToken()
                            + ") with the existing file system " + id + ", tagged " + RunTags.STACK_TAG + "="
                            + found.get(RunTags.STACK_TAG) + " and " + RunTags.RUN_ID_TAG + "="
                            + found.get(RunTags.RUN_ID_TAG) + ", not this run's (" + tags.stack() + ", "
                            + tags.runId() + "); the run neither uses nor deletes it. Start the run under another"
                            + " runId");
        }
    }

    /**
     * The file system made with this CreationToken and carrying the run's {@code tags}, if any: how
     * cleanup finds a file system whose create was accepted but whose id never reached the run
     * record. One with the token but not the tags is someone else's, and never the run's to delete.
     */
    public Optional<String> findByCreationToken(String creationToken, RunTags tags) {
        try {
            return efs.describeFileSystems(EfsRequests.describeByCreationToken(creationToken)).fileSystems().stream()
                    .filter(fs ->
                            tags.on(fs.tags().stream().collect(Collectors.toMap(Tag::key, Tag::value, (a, b) -> a))))
                    .map(FileSystemDescription::fileSystemId)
                    .findFirst();
        } catch (EfsException e) {
            throw EfsErrors.translate(e, "file system " + creationToken);
        }
    }

    /** The file system's lifecycle, by its id: {@link #fileSystemState}, {@link #deleteFileSystem}. */
    public ResourceLifecycle<String> fileSystems() {
        return ResourceLifecycle.of(this::fileSystemState, this::deleteFileSystem);
    }

    /** The lifecycle of a file system's mount targets, by its id: {@link #mountTargetsState}, {@link #deleteMountTargets}. */
    public ResourceLifecycle<String> mountTargets() {
        return ResourceLifecycle.of(this::mountTargetsState, this::deleteMountTargets);
    }

    /** Where the file system stands; a file system that does not exist is {@code Gone}. */
    public ResourceState fileSystemState(String fileSystemId) {
        return describe(fileSystemId)
                .map(fs -> fileSystemState(fs.lifeCycleState(), fileSystemId))
                .orElseGet(ResourceState.Gone::new);
    }

    static ResourceState fileSystemState(LifeCycleState state, String fileSystemId) {
        return switch (state) {
            case CREATING -> new ResourceState.Creating("file system " + fileSystemId + " is being created");
            case AVAILABLE, UPDATING -> new ResourceState.Ready();
            case ERROR -> new ResourceState.Failed("file system " + fileSystemId + " is in state error");
            case DELETING -> new ResourceState.Deleting();
            case DELETED -> new ResourceState.Gone();
            case UNKNOWN_TO_SDK_VERSION ->
                new ResourceState.Creating(
                        "file system " + fileSystemId + " is in a state" + " this version does not know; waiting");
        };
    }

    /**
     * The tags of file system {@code fileSystemId}, which a run may use only if it is available
     * (whether the run may adopt it is FileSystemAdoption's to say).
     *
     * @throws TerminalException FileSystemNotFound when it does not exist in this account and
     *                           region; FileSystemNotAvailable when it is not available
     */
    public Map<String, String> adoptable(String fileSystemId) {
        FileSystemDescription fs = describe(fileSystemId)
                .orElseThrow(() -> new TerminalException(
                        FailureReason.FileSystemNotFound,
                        "volume.fileSystemId names file system " + fileSystemId
                                + ", which does not exist in this account and"
                                + " region: check the id and the stack's region, or leave volume.fileSystemId out so that the"
                                + " run creates a file system"));
        LifeCycleState state = fs.lifeCycleState();
        if (state != LifeCycleState.AVAILABLE && state != LifeCycleState.UPDATING) {
            throw new TerminalException(
                    FailureReason.FileSystemNotAvailable,
                    "volume.fileSystemId names file system "
                            + fileSystemId + ", which is " + fs.lifeCycleStateAsString()
                            + ": only an available file system"
                            + " can be used; wait for it or name another");
        }
        return fs.tags().stream().collect(Collectors.toMap(Tag::key, Tag::value, (a, b) -> a));
    }

    public List<String> ensureMountTargets(String fileSystemId, ClusterNetwork network) {
        return ensureMountTargets(fileSystemId, network.subnetIds(), network.securityGroupIds());
    }

    /**
     * Gives the file system a mount target in each Availability Zone of the subnets that has none:
     * EFS allows one per zone, and two subnets in one zone share it. Without an EC2 client the zone
     * of a subnet is known only from EFS's answer: a subnet whose zone already has a mount target is
     * refused with MountTargetConflict ("mount target already exists in this AZ") and counts as
     * served, so such a subnet costs one refused call per look. Call it once the file system is
     * available.
     *
     * @return the ids of all the file system's mount targets
     * @throws TransientException when the file system is not available yet
     * @throws TerminalException  for what the user must fix (subnets, security groups, quotas)
     */
    public List<String> ensureMountTargets(String fileSystemId, List<String> subnetIds, List<String> securityGroupIds) {
        if (subnetIds.isEmpty()) {
            throw new TerminalException(
                    FailureReason.NoSubnets,
                    "no subnet was given for the mount targets of file system " + fileSystemId
                            + ": deploy the stack with the cluster's subnets");
        }
        List<MountTargetDescription> existing = mountTargets(fileSystemId)
                .orElseThrow(() -> new TerminalException(
                        FailureReason.FileSystemNotFound,
                        "file system " + fileSystemId + " no longer exists (deleted outside the run?)"));
        Set<String> covered =
                existing.stream().map(MountTargetDescription::subnetId).collect(Collectors.toSet());
        List<String> ids = new ArrayList<>(
                existing.stream().map(MountTargetDescription::mountTargetId).toList());
        boolean conflict = false;
        for (String subnetId : new LinkedHashSet<>(subnetIds)) {
            if (covered.contains(subnetId)) {
                continue;
            }
            String subject = "subnet " + subnetId + " of file system " + fileSystemId;
            try {
                ids.add(efs.createMountTarget(EfsRequests.createMountTarget(fileSystemId, subnetId, securityGroupIds))
                        .mountTargetId());
            } catch (MountTargetConflictException e) {
                if (String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("vpc")) {
                    throw new TerminalException(
                            FailureReason.MountTargetConflict,
                            subject + ": the subnets are not all in the"
                                    + " same VPC as the file system's mount targets; give the stack subnets of one VPC",
                            e);
                }
                conflict = true; // the zone already has one, or a concurrent attempt made it
            } catch (EfsException e) {
                throw EfsErrors.translate(e, subject); // IncorrectFileSystemLifeCycleState: not available yet
            }
        }
        if (conflict) {
            return mountTargets(fileSystemId).orElse(List.of()).stream()
                    .map(MountTargetDescription::mountTargetId)
                    .toList();
        }
        return List.copyOf(ids);
    }

    /**
     * {@code Ready} when the file system has mount targets and all of them are available;
     * {@code Failed} when one is in error; {@code Gone} when the file system is.
     */
    public ResourceState mountTargetsState(String fileSystemId) {
        return mountTargets(fileSystemId).map(EfsVolumes::mountTargetsState).orElseGet(ResourceState.Gone::new);
    }

    static ResourceState mountTargetsState(List<MountTargetDescription> mountTargets) {
        if (mountTargets.isEmpty()) {
            return new ResourceState.Creating("no mount target yet");
        }
        int available = 0;
        for (MountTargetDescription mt : mountTargets) {
            switch (mt.lifeCycleState()) {
                case AVAILABLE, UPDATING -> available++;
                case ERROR -> {
                    return new ResourceState.Failed("mount target " + mt.mountTargetId() + " in subnet " + mt.subnetId()
                            + " is in state error");
                }
                case DELETING, DELETED -> {
                    return new ResourceState.Deleting();
                }
                default -> {}
            }
        }
        return available == mountTargets.size()
                ? new ResourceState.Ready()
                : new ResourceState.Creating(available + " of " + mountTargets.size() + " mount targets available");
    }

    /**
     * Starts deleting every mount target of the file system (never call it for an adopted one).
     *
     * @return {@code Gone} when none is left, {@code Deleting} while some are, {@code Blocked} when
     *         one cannot be deleted in its current state
     */
    public Deletion deleteMountTargets(String fileSystemId) {
        Optional<List<MountTargetDescription>> mountTargets = mountTargets(fileSystemId);
        if (mountTargets.isEmpty() || mountTargets.get().isEmpty()) {
            return new Deletion.Gone();
        }
        for (MountTargetDescription mt : mountTargets.get()) {
            if (mt.lifeCycleState() == LifeCycleState.DELETING || mt.lifeCycleState() == LifeCycleState.DELETED) {
                continue;
            }
            try {
                efs.deleteMountTarget(EfsRequests.deleteMountTarget(mt.mountTargetId()));
            } catch (MountTargetNotFoundException e) {
                // deleted meanwhile: what we wanted
            } catch (IncorrectMountTargetStateException e) {
                return new Deletion.Blocked("mount target " + mt.mountTargetId() + " is " + mt.lifeCycleStateAsString()
                        + " and cannot be deleted yet");
            }
        }
        return new Deletion.Deleting();
    }

    /** The ids of the file system's mount targets that still exist (deleting ones too); none when it does not exist. */
    public List<String> mountTargetIds(String fileSystemId) {
        return mountTargets(fileSystemId).orElse(List.of()).stream()
                .filter(mt -> mt.lifeCycleState() != LifeCycleState.DELETED)
                .map(MountTargetDescription::mountTargetId)
                .toList();
    }

    /**
     * Starts deleting the file system (never call it for an adopted one).
     *
     * @return {@code Gone} when it does not exist, {@code Deleting} once EFS accepted the delete,
     *         {@code Blocked} while it still has mount targets or is still being created
     */
    public Deletion deleteFileSystem(String fileSystemId) {
        Optional<FileSystemDescription> fs = describe(fileSystemId);
        if (fs.isEmpty() || fs.get().lifeCycleState() == LifeCycleState.DELETED) {
            return new Deletion.Gone();
        }
        if (fs.get().lifeCycleState() == LifeCycleState.DELETING) {
            return new Deletion.Deleting();
        }
        try {
            efs.deleteFileSystem(EfsRequests.deleteFileSystem(fileSystemId));
            return new Deletion.Deleting();
        } catch (FileSystemNotFoundException e) {
            return new Deletion.Gone();
        } catch (FileSystemInUseException e) {
            return new Deletion.Blocked("file system " + fileSystemId + " still has mount targets: delete them first");
        } catch (IncorrectFileSystemLifeCycleStateException e) {
            return new Deletion.Blocked("file system " + fileSystemId + " is "
                    + fs.get().lifeCycleStateAsString() + " and cannot be deleted yet");
        }
    }

    private Optional<FileSystemDescription> describe(String fileSystemId) {
        try {
            return efs.describeFileSystems(EfsRequests.describeFileSystem(fileSystemId)).fileSystems().stream()
                    .findFirst();
        } catch (FileSystemNotFoundException e) {
            return Optional.empty();
        }
    }

    /** All mount targets of the file system, every page; empty when the file system does not exist. */
    private Optional<List<MountTargetDescription>> mountTargets(String fileSystemId) {
        return MountTargetListing.all(efs, fileSystemId);
    }
}
