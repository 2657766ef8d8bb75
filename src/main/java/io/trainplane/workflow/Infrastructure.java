package io.trainplane.workflow;

import io.trainplane.aws.Clients;
import io.trainplane.aws.Settings;
import io.trainplane.aws.ec2.Ec2Objects;
import io.trainplane.aws.efs.EfsVolumes;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.EksClusters;
import io.trainplane.aws.eks.EksNodegroups;

/** The lifecycles of the AWS resources a run creates, over the clients of this function. */
public record Infrastructure(EksClusters clusters, EksNodegroups nodegroups, EksAddons addons, EfsVolumes volumes,
                             Ec2Objects ec2, Settings settings) {
    public static Infrastructure of(Clients clients) {
        return new Infrastructure(new EksClusters(clients.eks()), new EksNodegroups(clients.eks()),
                new EksAddons(clients.eks()), new EfsVolumes(clients.efs()), new Ec2Objects(clients.cloudControl()),
                clients.settings());
    }
}
