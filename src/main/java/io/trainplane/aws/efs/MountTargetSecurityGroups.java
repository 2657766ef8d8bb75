package io.trainplane.aws.efs;

import io.trainplane.aws.Deletion;
import io.trainplane.aws.ResourceLifecycle;
import io.trainplane.aws.ResourceState;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import io.trainplane.core.TransientException;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.efs.model.IncorrectMountTargetStateException;
import software.amazon.awssdk.services.efs.model.LifeCycleState;
import software.amazon.awssdk.services.efs.model.MountTargetDescription;
import software.amazon.awssdk.services.efs.model.MountTargetNotFoundException;
import software.amazon.awssdk.services.efs.model.SecurityGroupNotFoundException;

/**
 * The security groups of a file system's mount targets. A client reaches a mount target on NFS
 * (TCP 2049) only as the mount target's groups allow; EKS puts the cluster's security group on the
 * nodes, and that group admits all traffic from itself, so a mount target carrying it admits the
 * cluster's nodes. A file system the run did not create — {@code volume.fileSystemId}, or one an
 * earlier run kept — has mount targets already, carrying the groups someone gave them (an earlier
 * run's cluster group, say): {@link #add} puts the run's cluster group beside them, {@link #remove}
 * takes it back. EFS only replaces a mount target's whole set, so each change reads the set first.
 *
 * <p>The calls and what they need of the caller: DescribeMountTargetSecurityGroups
 * ({@code elasticfilesystem:DescribeMountTargetSecurityGroups} on the file system,
 * {@code ec2:DescribeNetworkInterfaceAttribute} on the mount target's network interface,
 * https://docs.aws.amazon.com/efs/latest/ug/API_DescribeMountTargetSecurityGroups.html) and
 * ModifyMountTargetSecurityGroups ({@code elasticfilesystem:ModifyMountTargetSecurityGroups},
 * {@code ec2:ModifyNetworkInterfaceAttribute},
 * https://docs.aws.amazon.com/efs/latest/ug/API_ModifyMountTargetSecurityGroups.html).
 *
 * <p>As a {@link ResourceLifecycle}, the resource is the group's place on the mount targets the run
 * added it to ({@link Added}): deleting it takes the group back off them.
 */
public final class MountTargetSecurityGroups implements ResourceLifecycle<MountTargetSecurityGroups.Added> {
    /** A security group, and the mount targets it was added to. */
    public record Added(String groupId, List<String> mountTargetIds) {
        public Added {
            mountTargetIds = List.copyOf(mountTargetIds);
        }
    }

    /**
     * EFS's quota, which cannot be changed: "Number of security groups for each mount target", 5
     * (https://docs.aws.amazon.com/efs/latest/ug/limits.html).
     */
    public static final int PER_MOUNT_TARGET = 5;

    private final EfsClient efs;

    public MountTargetSecurityGroups(EfsClient efs) {
        this.efs = efs;
    }

    /**
     * The file system's available mount targets that do not carry {@code groupId}; call it once
     * every mount target is available (the others are not looked at).
     *
     * @throws TerminalException when the file system no longer exists
     */
    public List<String> without(String fileSystemId, String groupId) {
        List<MountTargetDescription> all = MountTargetListing.all(efs, fileSystemId)
                .orElseThrow(() -> new TerminalException(
                        FailureReason.FileSystemNotFound,
                        "file system " + fileSystemId + " no longer exists (deleted outside the run?)"));
        List<String> lacking = new ArrayList<>();
        for (MountTargetDescription mt : all) {
            if (mt.lifeCycleState() != LifeCycleState.AVAILABLE && mt.lifeCycleState() != LifeCycleState.UPDATING) {
                continue;
            }
            try {
                if (!groups(mt.mountTargetId(), fileSystemId).contains(groupId)) {
                    lacking.add(mt.mountTargetId());
                }
            } catch (MountTargetNotFoundException e) {
                // deleted since the listing: nothing to add the group to
            }
        }
        return List.copyOf(lacking);
    }

    /**
     * Adds {@code groupId} to the mount target's groups, keeping the others; nothing when it is
     * there already.
     *
     * @return whether the mount target's groups changed
     * @throws TerminalException  when the mount target has {@value #PER_MOUNT_TARGET} groups already,
     *                            or the group is not in the mount target's VPC
     * @throws TransientException while the mount target is changing state
     */
    public boolean add(String fileSystemId, String mountTargetId, String groupId) {
        List<String> current;
        try {
            current = groups(mountTargetId, fileSystemId);
        } catch (MountTargetNotFoundException e) {
            return false; // deleted meanwhile
        }
        if (current.contains(groupId)) {
            return false;
        }
        String subject = "mount target " + mountTargetId + " of file system " + fileSystemId;
        if (current.size() >= PER_MOUNT_TARGET) {
            throw new TerminalException(
                    FailureReason.SecurityGroupLimitExceeded,
                    subject + " already has " + current.size()
                            + " security groups (" + String.join(", ", current)
                            + "), the most EFS allows, so the cluster's"
                            + " security group " + groupId
                            + " cannot join them and the cluster's nodes could not reach the"
                            + " file system: remove a group it no longer needs (aws efs modify-mount-target-security-groups"
                            + " --mount-target-id " + mountTargetId + " --security-groups …) and start the run again");
        }
        List<String> union = new ArrayList<>(current);
        union.add(groupId);
        try {
            efs.modifyMountTargetSecurityGroups(EfsRequests.modifyMountTargetSecurityGroups(mountTargetId, union));
            return true;
        } catch (SecurityGroupNotFoundException e) {
            throw new TerminalException(
                    FailureReason.SecurityGroupNotFound,
                    subject + ": the cluster's security group " + groupId
                            + " is not in the VPC of the file system's mount targets (EFS serves one VPC per file system):"
                            + " volume.fileSystemId must name a file system whose mount targets are in the stack's VPC",
                    e);
        } catch (MountTargetNotFoundException e) {
            return false;
        } catch (IncorrectMountTargetStateException e) {
            throw new TransientException(subject + " is changing state; its groups are changed on the next look", e);
        } catch (EfsException e) {
            throw EfsErrors.translate(e, subject);
        }
    }

    /** Ready while one of the mount targets still carries the group beside another; Gone when none does. */
    @Override
    public ResourceState state(Added added) {
        for (String mountTarget : added.mountTargetIds()) {
            try {
                List<String> groups = groups(mountTarget, null);
                if (groups.contains(added.groupId()) && groups.size() > 1) {
                    return new ResourceState.Ready();
                }
            } catch (MountTargetNotFoundException e) {
                // gone: it carries nothing
            }
        }
        return new ResourceState.Gone();
    }

    /** Takes the group back off every mount target it was added to ({@link #remove}); the change is immediate. */
    @Override
    public Deletion delete(Added added) {
        for (String mountTarget : added.mountTargetIds()) {
            remove(mountTarget, added.groupId());
        }
        return new Deletion.Gone();
    }

    /**
     * Takes {@code groupId} back off the mount target, keeping its other groups. Nothing when the
     * mount target is gone, does not carry the group, or has no other group: a network interface
     * keeps at least one, so the group then stays.
     *
     * @return whether the mount target's groups changed
     * @throws TransientException while the mount target is changing state
     */
    public boolean remove(String mountTargetId, String groupId) {
        String subject = "mount target " + mountTargetId;
        try {
            List<String> rest = new ArrayList<>(groups(mountTargetId, null));
            if (!rest.remove(groupId) || rest.isEmpty()) {
                return false;
            }
            efs.modifyMountTargetSecurityGroups(EfsRequests.modifyMountTargetSecurityGroups(mountTargetId, rest));
            return true;
        } catch (MountTargetNotFoundException e) {
            return false;
        } catch (IncorrectMountTargetStateException e) {
            throw new TransientException(subject + " is changing state; its groups are changed on the next look", e);
        } catch (EfsException e) {
            throw EfsErrors.translate(e, subject);
        }
    }

    /** The mount target's groups; {@code fileSystemId} (may be null) names it in errors. */
    private List<String> groups(String mountTargetId, String fileSystemId) {
        String subject =
                "mount target " + mountTargetId + (fileSystemId == null ? "" : " of file system " + fileSystemId);
        try {
            return efs.describeMountTargetSecurityGroups(EfsRequests.describeMountTargetSecurityGroups(mountTargetId))
                    .securityGroups();
        } catch (MountTargetNotFoundException e) {
            throw e; // gone meanwhile: each caller says what that means
        } catch (IncorrectMountTargetStateException e) {
            throw new TransientException(subject + " is changing state; its groups are read on the next look", e);
        } catch (EfsException e) {
            throw EfsErrors.translate(e, subject);
        }
    }
}
