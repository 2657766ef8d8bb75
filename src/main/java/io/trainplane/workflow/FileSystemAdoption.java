package io.trainplane.workflow;

import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.Names;
import io.trainplane.spec.RunSpecs;
import io.trainplane.spec.VolumeSpec;
import io.trainplane.spec.VolumeType;
import java.util.Map;
import java.util.Optional;

/**
 * Which file system a run may adopt ({@code volume.fileSystemId}), and its hold on it: one the
 * stack's parameter AdoptableFileSystemIds names, or one a finished run of this deployment of the
 * stack kept (its tags name the stack, the deployment and a run whose record is over and lists it
 * as kept). StartRun claims it ({@link RunStore.Claim#FILE_SYSTEM}) before anything is created,
 * and the run holds it until its cleanup is done, so that two runs never write one volume at once,
 * and a volume is never taken from under the run that made it.
 */
final class FileSystemAdoption {
    private FileSystemAdoption() {}

    /**
     * The tags of the file system {@code volume.fileSystemId} names, read from its service, which
     * also refuses one that does not exist, is not available or (FSx) is not Lustre.
     */
    @FunctionalInterface
    interface Lookup {
        Map<String, String> tags(VolumeSpec volume);
    }

    /** Claims the file system {@code volume} adopts for {@code runId}, or refuses it; nothing when it adopts none. */
    static void claim(VolumeSpec volume, Lookup lookup, Settings settings, RunStore store, String runId) {
        String id = volume.fileSystemId();
        if (id != null) {
            String ref = (volume.type() == VolumeType.FSX_LUSTRE ? "fsx" : "efs") + ":file-system/" + id;
            claim(id, ref, lookup.tags(volume), settings, store, runId);
        }
    }

    /**
     * Claims {@code fileSystemId} ({@code ref}: how the run record names it, e.g.
     * {@code efs:file-system/fs-1}) for {@code runId}, or refuses it.
     *
     * @param tags the file system's tags
     * @throws TerminalException FileSystemNotAdoptable, FileSystemInUse
     */
    private static void claim(
            String fileSystemId,
            String ref,
            Map<String, String> tags,
            Settings settings,
            RunStore store,
            String runId) {
        if (!settings.adoptableFileSystemIds().contains(fileSystemId)) {
            whyNot(fileSystemId, ref, tags, settings, store, runId).ifPresent(why -> {
                throw why;
            });
        }
        store.claim(RunStore.Claim.FILE_SYSTEM, fileSystemId, runId).ifPresent(holder -> {
            throw new TerminalException(
                    FailureReason.FileSystemInUse,
                    "volume.fileSystemId names file system " + fileSystemId + ", which run " + holder
                            + " uses now; nothing was created. Start this run again once " + holder
                            + " has finished (trainplane status " + holder + "), or give another file system");
        });
    }

    /**
     * Lets go of what the run adopted, once its cleanup is done: the file system its spec names,
     * which StartRun claimed whether or not the run got as far as mounting it.
     */
    static void release(RunRecord run, RunStore store) {
        String adopted;
        try {
            adopted = RunSpecs.fromNormalized(run.specJson()).volume().fileSystemId();
        } catch (RuntimeException unreadable) {
            return; // a record the janitor made for an unknown run: it claimed nothing
        }
        if (adopted != null) {
            store.release(RunStore.Claim.FILE_SYSTEM, adopted, run.runId());
        }
    }

    /** Why a file system the parameter does not name may not be adopted; empty when a finished run of the stack kept it. */
    private static Optional<TerminalException> whyNot(
            String fileSystemId,
            String ref,
            Map<String, String> tags,
            Settings settings,
            RunStore store,
            String runId) {
        String named = "volume.fileSystemId names file system " + fileSystemId;
        String fix = ": add it to the stack's parameter AdoptableFileSystemIds (sam deploy --parameter-overrides"
                + " AdoptableFileSystemIds=" + fileSystemId + "), or leave volume.fileSystemId out so that the run"
                + " creates a file system";
        String maker = tags.get(Names.RUN_ID_TAG);
        boolean ours = settings.stackName().equals(tags.get(RunTags.STACK_TAG))
                && (settings.stackId() == null || settings.stackId().equals(tags.get(RunTags.STACK_ID_TAG)));
        if (!ours || maker == null || maker.equals(runId)) {
            return Optional.of(new TerminalException(
                    FailureReason.FileSystemNotAdoptable,
                    named + ", which this stack neither created"
                            + (tags.containsKey(RunTags.STACK_TAG)
                                    ? " (it is tagged " + RunTags.STACK_TAG + "=" + tags.get(RunTags.STACK_TAG) + ", "
                                            + RunTags.STACK_ID_TAG + "=" + tags.get(RunTags.STACK_ID_TAG) + ", "
                                            + Names.RUN_ID_TAG + "=" + maker + ")"
                                    : "")
                            + " nor lists in its parameter AdoptableFileSystemIds ("
                            + (settings.adoptableFileSystemIds().isEmpty()
                                    ? "empty"
                                    : String.join(", ", settings.adoptableFileSystemIds()))
                            + ")" + fix));
        }
        Optional<RunRecord> made = store.find(maker);
        if (made.isEmpty()) {
            return Optional.of(new TerminalException(
                    FailureReason.FileSystemNotAdoptable,
                    named + ", which run " + maker + " made; this stack has no record of that run, so nothing says"
                            + " it is done with it" + fix));
        }
        if (!made.get().status().isTerminal()) {
            return Optional.of(new TerminalException(
                    FailureReason.FileSystemInUse,
                    named + ", which run " + maker + " made and still uses ("
                            + made.get().status()
                            + "); nothing was created. Adopt it once that run has finished with cleanup.keepVolume"));
        }
        if (!CleanupRecord.kept(made.get()).contains(ref)) {
            return Optional.of(new TerminalException(
                    FailureReason.FileSystemNotAdoptable,
                    named + ", which run " + maker + " made and did not keep (cleanup.keepVolume was false): its"
                            + " cleanup deletes it. Keep a volume with cleanup.keepVolume, or leave"
                            + " volume.fileSystemId out"));
        }
        return Optional.empty();
    }
}
