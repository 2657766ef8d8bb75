package io.trainplane.workflow;

import io.trainplane.runs.RunRecord;
import io.trainplane.runs.RunResources;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * What the run record says about the cluster's security group on mount targets the run did not
 * make: the group, and the mount targets the run added it to ({@link RunResources#MOUNT_TARGET_GROUP},
 * {@link RunResources#MOUNT_TARGETS_OPENED}).
 */
record OpenedMountTargets(String securityGroupId, List<String> mountTargetIds) {
    OpenedMountTargets {
        mountTargetIds = List.copyOf(new TreeSet<>(mountTargetIds));
    }

    static Optional<OpenedMountTargets> of(RunRecord run) {
        List<String> opened = run.resources().list(RunResources.MOUNT_TARGETS_OPENED);
        return run.resources()
                .get(RunResources.MOUNT_TARGET_GROUP)
                .filter(group -> !opened.isEmpty())
                .map(group -> new OpenedMountTargets(group, opened));
    }

    /** {@code run} with {@code mountTargetIds} added to the ones it lists for {@code securityGroupId}. */
    static RunRecord add(RunRecord run, String securityGroupId, List<String> mountTargetIds) {
        TreeSet<String> all = new TreeSet<>(mountTargetIds);
        of(run).filter(o -> o.securityGroupId().equals(securityGroupId)).ifPresent(o -> all.addAll(o.mountTargetIds()));
        return run.withResource(RunResources.MOUNT_TARGET_GROUP, securityGroupId)
                .withResource(RunResources.MOUNT_TARGETS_OPENED, List.copyOf(all));
    }
}
