package io.trainplane.local.sim;

import io.trainplane.aws.RunTags;
import io.trainplane.spec.Names;
import java.util.Map;
import java.util.TreeMap;

/**
 * One thing that exists in the simulated account, as the inventory lists it: a reference such as
 * {@code eks:cluster/tp-demo} or {@code efs:file-system/fs-0a1b…}, and its tags.
 */
public record CloudResource(String ref, Map<String, String> tags) implements Comparable<CloudResource> {
    public CloudResource {
        tags = Map.copyOf(new TreeMap<>(tags));
    }

    /** The run that owns it, from the tag {@value Names#RUN_ID_TAG}; null when untagged. */
    public String runId() {
        return tags.get(Names.RUN_ID_TAG);
    }

    /** The stack whose run made it, from the tag {@value RunTags#STACK_TAG}; null when untagged. */
    public String stack() {
        return tags.get(RunTags.STACK_TAG);
    }

    public boolean ofAnyRun() {
        return runId() != null;
    }

    @Override
    public int compareTo(CloudResource other) {
        return ref.compareTo(other.ref);
    }
}
