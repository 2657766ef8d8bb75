package io.trainplane.workflow;

import io.trainplane.core.Json;
import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.clients.Clients;
import io.trainplane.runs.RunResources;

/**
 * Creates the run's encrypted EFS file system (its CreationToken comes from the runId, so a retry
 * gets the same one), or adopts {@code volume.fileSystemId}, which is then never deleted.
 */
public final class CreateVolumeStep implements Step {
    private final Services services;
    private final Infrastructure infrastructure;

    public CreateVolumeStep(Clients clients) {
        this.services = Services.of(clients);
        this.infrastructure = Infrastructure.of(clients);
    }

    /** The EFS client, as every invocation uses it. */
    @Override
    public void prime(RunContext sample, Clients offline) {
        offline.efs().describeFileSystems(r -> r.creationToken(sample.names().efsCreationToken()));
    }

    @Override
    public JsonNode run(JsonNode input) {
        RunContext run = RunContext.from(input);
        String adopt = run.spec().volume().fileSystemId();
        if (adopt != null) {
            var settings = infrastructure.settings();
            infrastructure.volumes().checkAdoptable(adopt, settings.stackName(), settings.adoptableFileSystemIds());
            services.store().update(run.runId(), r -> r.withResource(RunResources.FILE_SYSTEM, adopt)
                    .withResource(RunResources.FILE_SYSTEM_ADOPTED, true));
            return Json.object().put("fileSystemId", adopt).put("adopted", true);
        }
        // Until EFS answers, the token is what finds the file system (cleanup looks it up by it).
        services.store().update(run.runId(), r -> r.withResource(RunResources.FILE_SYSTEM_TOKEN, run.names().efsCreationToken()));
        String id = infrastructure.volumes().createFileSystem(run.names(), infrastructure.tags(run.names()));
        services.store().update(run.runId(), r -> r.withResource(RunResources.FILE_SYSTEM, id));
        return Json.object().put("fileSystemId", id).put("adopted", false);
    }
}
