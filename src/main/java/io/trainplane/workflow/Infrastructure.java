package io.trainplane.workflow;

import io.trainplane.aws.RunTags;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.ec2.ReservedCapacity;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.efs.MountTargetSecurityGroups;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;
import io.trainplane.clients.Clients;
import io.trainplane.spec.Names;

/**
 * The lifecycles of the AWS resources a run creates, over the clients of this function, for the
 * teardown side's steps (the others take theirs in their constructors, {@link StepWiring}). Each is
 * made when asked for: the SDK client behind it is built on first use, so a step that only checks
 * a cluster never builds the EFS or Cloud Control client (each adds to the cold start).
 */
public final class Infrastructure {
    private final Clients clients;

    private Infrastructure(Clients clients) {
        this.clients = clients;
    }

    public static Infrastructure of(Clients clients) {
        return new Infrastructure(clients);
    }

    public EksClusters clusters() {
        return new EksClusters(clients.eks());
    }

    public EksNodegroups nodegroups() {
        return new EksNodegroups(clients.eks());
    }

    public EksAddons addons() {
        return new EksAddons(clients.eks());
    }

    public EfsVolumes volumes() {
        return new EfsVolumes(clients.efs());
    }

    public MountTargetSecurityGroups mountTargetGroups() {
        return new MountTargetSecurityGroups(clients.efs());
    }

    public Ec2Objects ec2() {
        return new Ec2Objects(clients.cloudControl());
    }

    /** Capacity reservations and subnets, read through Cloud Control. */
    public ReservedCapacity reservedCapacity() {
        return new ReservedCapacity(clients.cloudControl());
    }

    public Settings settings() {
        return clients.settings();
    }

    /** The tags of everything run {@code names} creates: this stack's and the run's. */
    public RunTags tags(Names names) {
        return RunTags.of(clients.settings(), names);
    }
}
