package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.core.Json;
import io.trainplane.runs.RunResources;
import io.trainplane.runs.RunStore;
import io.trainplane.spec.VolumeType;
import java.util.function.Supplier;

/**
 * Creates the run's encrypted EFS file system (its CreationToken comes from the runId, so a retry
 * gets the same one), or adopts {@code volume.fileSystemId}, which is then never deleted.
 */
public final class CreateVolumeStep implements Step {
    private final RunStore store;
    private final Supplier<EfsVolumes> volumes;
    private final Settings settings;
    private final LustreVolumeSteps lustre;

    /** EFS as a supplier: its SDK client is built on first use, as every client is. */
    public CreateVolumeStep(RunStore store, Supplier<EfsVolumes> volumes, Settings settings) {
        this(store, volumes, settings, null);
    }

    /** With FSx for Lustre ({@code volume.type: fsx-lustre}, see LustreVolumeSteps). */
    CreateVolumeStep(RunStore store, Supplier<EfsVolumes> volumes, Settings settings, LustreVolumeSteps lustre) {
        this.store = store;
        this.volumes = volumes;
        this.settings = settings;
        this.lustre = lustre;
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        if (run.spec().volume().type() == VolumeType.FSX_LUSTRE) {
            return lustre.create(run);
        }
        String adopt = run.spec().volume().fileSystemId();
        if (adopt != null) {
            // StartRun claimed it; it is looked at again here, when the run is about to mount it.
            volumes.get().adoptable(adopt);
            store.update(run.runId(), r -> r.withResource(RunResources.FILE_SYSTEM, adopt)
                    .withResource(RunResources.FILE_SYSTEM_ADOPTED, true));
            return Json.object().put("fileSystemId", adopt).put("adopted", true);
        }
        // Until EFS answers, the token is what finds the file system (cleanup looks it up by it).
        store.update(
                run.runId(),
                r -> r.withResource(RunResources.FILE_SYSTEM_TOKEN, run.names().efsCreationToken()));
        String id = volumes.get().createFileSystem(run.names(), RunTags.of(settings, run.names()));
        store.update(run.runId(), r -> r.withResource(RunResources.FILE_SYSTEM, id));
        return Json.object().put("fileSystemId", id).put("adopted", false);
    }
}
