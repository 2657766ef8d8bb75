package io.trainplane.local.sim;

import java.util.List;
import java.util.Objects;

/**
 * What a simulated service holds: every resource that exists (not yet gone), with its tags, and
 * the ones a run owns (tagged {@code trainplane:run-id}). Resources that existed before any run
 * are untagged and never listed as a run's.
 */
public interface Inventory {
    /** Everything that exists, sorted by reference. */
    List<CloudResource> resources();

    /** The references of everything tagged {@code trainplane:run-id}, whatever the run. */
    default List<String> runResources() {
        return resources().stream()
                .filter(CloudResource::ofAnyRun)
                .map(CloudResource::ref)
                .sorted()
                .toList();
    }

    /** The references of everything tagged {@code trainplane:run-id=<runId>}. */
    default List<String> runResources(String runId) {
        Objects.requireNonNull(runId, "runId");
        return resources().stream()
                .filter(r -> runId.equals(r.runId()))
                .map(CloudResource::ref)
                .sorted()
                .toList();
    }
}
