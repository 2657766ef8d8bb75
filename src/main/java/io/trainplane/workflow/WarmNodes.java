package io.trainplane.workflow;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.aws.eks.WarmNodegroups;
import io.trainplane.aws.eks.WarmNodegroups.Warm;
import io.trainplane.runs.RunStore;

/**
 * The nodes a run added to a warm node group, as cleanup sees them: "deleting" them scales the node
 * group back to zero, and once it wants zero the run lets go of its claim. A node group another run
 * holds now is not this run's to scale: it is gone as far as this run goes.
 */
final class WarmNodes implements ResourceLifecycle<Warm> {
    private final WarmNodegroups nodegroups;
    private final RunStore store;
    private final String runId;

    WarmNodes(WarmNodegroups nodegroups, RunStore store, String runId) {
        this.nodegroups = nodegroups;
        this.store = store;
        this.runId = runId;
    }

    /** The client request token of the run's scale-in (a retried ask is the same update). */
    static String scaleInToken(String runId) {
        return runId + "-scale-in";
    }

    @Override
    public ResourceState state(Warm warm) {
        if (!held(warm)) {
            return new ResourceState.Gone();
        }
        return nodegroups.scaling(warm).desired() == 0 ? new ResourceState.Deleting() : new ResourceState.Ready();
    }

    @Override
    public Deletion delete(Warm warm) {
        if (!held(warm)) {
            return new Deletion.Gone();
        }
        if (nodegroups.scaleTo(warm, 0, scaleInToken(runId)).desired() != 0) {
            return new Deletion.Deleting();
        }
        // Zero asked for: the instances terminate on their own, and the next run may claim the group.
        store.release(RunStore.Claim.WARM_NODEGROUP, warm.ref(), runId);
        return new Deletion.Gone();
    }

    private boolean held(Warm warm) {
        return store.holder(RunStore.Claim.WARM_NODEGROUP, warm.ref())
                .map(runId::equals)
                .orElse(false);
    }
}
