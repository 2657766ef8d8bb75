package io.trainplane.aws.ec2;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.RunTags;
import io.trainplane.core.TerminalException;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * The lifecycle of a run's control-plane log group ({@link ControlPlaneLogGroup}), made through
 * Cloud Control: known by its name, the token of its create request (once sent), and the run whose
 * tags it must carry to be deleted.
 */
public final class ControlPlaneLogGroups implements ResourceLifecycle<ControlPlaneLogGroups.Recorded> {
    private static final Logger LOG = Logger.getLogger(ControlPlaneLogGroups.class.getName());

    /** A log group as the run record names it: its name, its create request once sent, its run's tags. */
    public record Recorded(String name, Optional<String> requestToken, RunTags run) {}

    private final Ec2Objects cloudControl;

    public ControlPlaneLogGroups(Ec2Objects cloudControl) {
        this.cloudControl = cloudControl;
    }

    @Override
    public ResourceState state(Recorded logGroup) {
        if (stillCreating(logGroup)) {
            return new ResourceState.Creating("log group " + logGroup.name() + " is being created");
        }
        return cloudControl.tags(ControlPlaneLogGroup.TYPE, logGroup.name()).isPresent()
                ? new ResourceState.Ready()
                : new ResourceState.Gone();
    }

    /**
     * Deletes the log group. A create still under way is waited for ({@code Blocked}: deleting
     * first would leave what it then creates); a log group that is not this run's (another stack's
     * or run's, or one EKS made) is left alone, and Gone as far as the run is concerned.
     */
    @Override
    public Deletion delete(Recorded logGroup) {
        if (stillCreating(logGroup)) {
            return new Deletion.Blocked(
                    "log group " + logGroup.name() + " is still being created: it is deleted once it exists");
        }
        Optional<Map<String, String>> tags = cloudControl.tags(ControlPlaneLogGroup.TYPE, logGroup.name());
        if (tags.isEmpty()) {
            return new Deletion.Gone();
        }
        if (!logGroup.run().on(tags.get())) {
            LOG.warning(() -> "run " + logGroup.run().runId() + ": log group " + logGroup.name()
                    + " is not the run's (tags " + tags.get() + "); left alone");
            return new Deletion.Gone();
        }
        return cloudControl.delete(ControlPlaneLogGroup.TYPE, logGroup.name());
    }

    private boolean stillCreating(Recorded logGroup) {
        if (logGroup.requestToken().isEmpty()) {
            return false;
        }
        try {
            return cloudControl.request(logGroup.requestToken().get()).state() instanceof ResourceState.Creating;
        } catch (TerminalException expired) {
            return false; // Cloud Control forgot the request: it ended long ago
        }
    }
}
