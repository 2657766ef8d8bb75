package io.trainplane.aws.fsx;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import java.util.Optional;

/**
 * The lifecycle of a run's FSx for Lustre file system for cleanup: its state by id, its deletion,
 * and the run's file system found by its tags when its id never reached the run record. Never given
 * an adopted file system.
 */
public final class LustreTeardown implements ResourceLifecycle<String> {
    private final LustreFileSystems fsx;

    public LustreTeardown(LustreFileSystems fsx) {
        this.fsx = fsx;
    }

    /** The run's Lustre file system, by the run's tags ({@code trainplane:stack}, {@code trainplane:run-id}). */
    public Optional<String> findByRun(RunTags tags) {
        return fsx.list().stream()
                .filter(fs -> "LUSTRE".equals(fs.fileSystemType()) && tags.on(fs.tags()))
                .map(LustreFileSystems.Described::fileSystemId)
                .findFirst();
    }

    /**
     * Where the file system stands (https://docs.aws.amazon.com/fsx/latest/APIReference/API_FileSystem.html,
     * Lifecycle); one that does not exist is {@code Gone}.
     */
    @Override
    public ResourceState state(String fileSystemId) {
        return fsx.describe(fileSystemId)
                .map(fs -> switch (fs.lifecycle()) {
                    case "AVAILABLE", "UPDATING" -> (ResourceState) new ResourceState.Ready();
                    case "DELETING" -> new ResourceState.Deleting();
                    case "FAILED", "MISCONFIGURED", "MISCONFIGURED_UNAVAILABLE" ->
                        new ResourceState.Failed(
                                "FSx for Lustre file system " + fileSystemId + " is " + fs.lifecycle());
                    default ->
                        new ResourceState.Creating(
                                "FSx for Lustre file system " + fileSystemId + " is " + fs.lifecycle());
                })
                .orElseGet(ResourceState.Gone::new);
    }

    /**
     * Starts deleting the file system: {@code Gone} when it does not exist, {@code Deleting} once FSx
     * accepted the delete, {@code Blocked} while it is still CREATING (FSx answers BadRequest).
     */
    @Override
    public Deletion delete(String fileSystemId) {
        Optional<LustreFileSystems.Described> fs = fsx.describe(fileSystemId);
        if (fs.isEmpty()) {
            return new Deletion.Gone();
        }
        if ("DELETING".equals(fs.get().lifecycle())) {
            return new Deletion.Deleting();
        }
        try {
            fsx.delete(fileSystemId);
            return new Deletion.Deleting();
        } catch (LustreFileSystems.FsxError e) {
            return switch (e.code()) {
                case "FileSystemNotFound" -> new Deletion.Gone();
                case "BadRequest" ->
                    new Deletion.Blocked("FSx for Lustre file system " + fileSystemId + " is "
                            + fs.get().lifecycle() + " and cannot be deleted yet");
                default -> throw e;
            };
        }
    }
}
