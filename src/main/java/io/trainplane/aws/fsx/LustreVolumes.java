package io.trainplane.aws.fsx;

import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import io.trainplane.spec.Names;
import io.trainplane.spec.VolumeSpec;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.fsx.FSxClient;
import software.amazon.awssdk.services.fsx.model.BadRequestException;
import software.amazon.awssdk.services.fsx.model.FSxException;
import software.amazon.awssdk.services.fsx.model.FileSystem;
import software.amazon.awssdk.services.fsx.model.FileSystemLifecycle;
import software.amazon.awssdk.services.fsx.model.FileSystemNotFoundException;
import software.amazon.awssdk.services.fsx.model.FileSystemType;
import software.amazon.awssdk.services.fsx.model.IncompatibleParameterErrorException;
import software.amazon.awssdk.services.fsx.model.InvalidExportPathException;
import software.amazon.awssdk.services.fsx.model.InvalidImportPathException;
import software.amazon.awssdk.services.fsx.model.InvalidNetworkSettingsException;
import software.amazon.awssdk.services.fsx.model.ServiceLimitExceededException;

/**
 * A run's FSx for Lustre file system up to its use: create, state, mount, adoption (its deletion
 * is {@link LustreTeardown}'s, which the Kubernetes artifact runs without the FSx SDK). Every method
 * looks once and returns (the state machine waits between calls) and can be called again with the
 * same result: create sends the run's ClientRequestToken. Adopted file systems
 * ({@code volume.fileSystemId}) are checked with {@link #checkAdoptable} and never deleted.
 */
public final class LustreVolumes {
    /** What a file system the pods can mount is known by: its id, DNS name and Lustre mount name. */
    public record Mount(String fileSystemId, String dnsName, String mountName) {}

    /** A file system a run may mount, with its tags (whether it may adopt it is the workflow's to say). */
    public record Adoptable(Mount mount, java.util.Map<String, String> tags) {}

    private final FSxClient fsx;

    public LustreVolumes(FSxClient fsx) {
        this.fsx = fsx;
    }

    /**
     * Creates the run's file system, or gets the one an earlier attempt created: FSx answers a
     * CreateFileSystem with a ClientRequestToken it has seen with that file system
     * (https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html).
     *
     * @return the file system id
     */
    public String createFileSystem(
            Names names, RunTags tags, VolumeSpec volume, String subnetId, List<String> securityGroupIds) {
        try {
            return fsx.createFileSystem(
                            LustreRequests.createFileSystem(names, tags, volume, subnetId, securityGroupIds))
                    .fileSystem()
                    .fileSystemId();
        } catch (FSxException e) {
            throw translate(e, "FSx for Lustre file system " + names.lustreRequestToken());
        }
    }

    /**
     * Links the file system to S3 as the spec says ({@link LustreRequests#associations}), or gets the
     * associations an earlier attempt made (the same ClientRequestToken).
     *
     * @return the associations' ids, in the order asked
     */
    public List<String> linkToS3(Names names, VolumeSpec volume, String fileSystemId) {
        List<String> ids = new java.util.ArrayList<>();
        for (var request : LustreRequests.associations(names, volume, fileSystemId)) {
            try {
                ids.add(fsx.createDataRepositoryAssociation(request)
                        .association()
                        .associationId());
            } catch (FSxException e) {
                throw translate(
                        e,
                        "the link of FSx for Lustre file system " + fileSystemId + " to "
                                + request.dataRepositoryPath());
            }
        }
        return List.copyOf(ids);
    }

    /**
     * Where the associations stand together: Ready when every one is AVAILABLE, Failed when one is
     * MISCONFIGURED or FAILED (with FSx's reason: an unreachable bucket, a missing permission),
     * Creating otherwise (https://docs.aws.amazon.com/fsx/latest/APIReference/API_DataRepositoryAssociation.html).
     */
    public ResourceState associationsState(List<String> associationIds) {
        var found = fsx.describeDataRepositoryAssociations(r -> r.associationIds(associationIds))
                .associations();
        for (var a : found) {
            switch (a.lifecycle()) {
                case MISCONFIGURED, FAILED -> {
                    return new ResourceState.Failed("its link to " + a.dataRepositoryPath() + " is "
                            + a.lifecycleAsString()
                            + (a.failureDetails() == null
                                    ? ""
                                    : ": " + a.failureDetails().message())
                            + "; check that the bucket exists in this region and LustreDataBuckets lists it");
                }
                case AVAILABLE -> {}
                default -> {
                    return new ResourceState.Creating(
                            "its link to " + a.dataRepositoryPath() + " is " + a.lifecycleAsString());
                }
            }
        }
        return found.size() == associationIds.size()
                ? new ResourceState.Ready()
                : new ResourceState.Creating("its links to S3 are not all listed yet");
    }

    /** Where the file system stands ({@link LustreTeardown#state}); one that does not exist is {@code Gone}. */
    public ResourceState fileSystemState(String fileSystemId) {
        return new LustreTeardown(new SdkLustreFileSystems(fsx)).state(fileSystemId);
    }

    /** How the pods mount the file system; empty while it does not exist. */
    public Optional<Mount> mount(String fileSystemId) {
        return describe(fileSystemId)
                .map(fs -> new Mount(
                        fs.fileSystemId(),
                        fs.dnsName(),
                        fs.lustreConfiguration() == null
                                ? null
                                : fs.lustreConfiguration().mountName()));
    }

    /**
     * Checks that an existing file system named by the spec can be used: it exists, is Lustre,
     * and is available. Its security groups must admit the cluster's nodes on Lustre's ports; the
     * run cannot change them (FSx has no API for a file system's groups).
     *
     * @throws TerminalException FileSystemNotFound, FileSystemNotLustre, FileSystemNotAvailable
     */
    public Adoptable checkAdoptable(String fileSystemId) {
        FileSystem fs = describe(fileSystemId)
                .orElseThrow(() -> new TerminalException(
                        FailureReason.FileSystemNotFound,
                        "volume.fileSystemId names FSx file system " + fileSystemId
                                + ", which does not exist in this account and region: check the id and the stack's"
                                + " region, or leave volume.fileSystemId out so that the run creates one"));
        if (fs.fileSystemType() != FileSystemType.LUSTRE) {
            throw new TerminalException(
                    FailureReason.FileSystemNotLustre,
                    "volume.fileSystemId names FSx file system " + fileSystemId + ", which is "
                            + fs.fileSystemTypeAsString() + ", not LUSTRE: name a Lustre file system");
        }
        if (fs.lifecycle() != FileSystemLifecycle.AVAILABLE && fs.lifecycle() != FileSystemLifecycle.UPDATING) {
            throw new TerminalException(
                    FailureReason.FileSystemNotAvailable,
                    "volume.fileSystemId names FSx file system " + fileSystemId + ", which is "
                            + fs.lifecycleAsString() + ": only an available file system can be used; wait for it"
                            + " or name another");
        }
        java.util.Map<String, String> tags = new java.util.TreeMap<>();
        fs.tags().forEach(t -> tags.put(t.key(), t.value()));
        return new Adoptable(
                new Mount(fileSystemId, fs.dnsName(), fs.lustreConfiguration().mountName()), tags);
    }

    private Optional<FileSystem> describe(String fileSystemId) {
        try {
            return fsx.describeFileSystems(LustreRequests.describe(fileSystemId)).fileSystems().stream()
                    .findFirst();
        } catch (FileSystemNotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * What an FSx error means for the run: what the user can act on becomes a
     * {@link TerminalException} saying what to do; the rest is returned unchanged for
     * {@code Failures.classify} (throttling, 5xx).
     */
    static RuntimeException translate(FSxException e, String subject) {
        return switch (e) {
            case ServiceLimitExceededException x ->
                new TerminalException(
                        FailureReason.ServiceLimitExceeded,
                        subject + ": the account has reached an FSx quota in this region (" + x.limitAsString()
                                + "): delete unused file systems, ask for a higher quota (Service Quotas, Amazon FSx),"
                                + " or set volume.fileSystemId to reuse a file system",
                        x);
            case InvalidNetworkSettingsException x ->
                new TerminalException(
                        FailureReason.InvalidNetworkSettings,
                        subject + ": " + x.awsErrorDetails().errorMessage()
                                + "; check the cluster subnets the stack was deployed with",
                        x);
            case InvalidImportPathException x ->
                new TerminalException(
                        FailureReason.InvalidImportPath,
                        subject + ": " + x.awsErrorDetails().errorMessage()
                                + "; set volume.s3ImportPath to an existing bucket of this region",
                        x);
            case InvalidExportPathException x ->
                new TerminalException(
                        FailureReason.InvalidExportPath,
                        subject + ": " + x.awsErrorDetails().errorMessage()
                                + "; set volume.s3ExportPath to a prefix in the bucket of volume.s3ImportPath",
                        x);
            case IncompatibleParameterErrorException x ->
                new TerminalException(
                        FailureReason.IncompatibleParameterError,
                        subject + ": " + x.awsErrorDetails().errorMessage() + " (parameter " + x.parameter()
                                + "); the spec's volume settings do not fit together",
                        x);
            case BadRequestException x ->
                new TerminalException(
                        FailureReason.BadRequest,
                        subject + ": " + x.awsErrorDetails().errorMessage() + "; check the spec's volume settings",
                        x);
            case FileSystemNotFoundException x -> new TransientException(subject + ": not found yet", x);
            default -> e;
        };
    }
}
