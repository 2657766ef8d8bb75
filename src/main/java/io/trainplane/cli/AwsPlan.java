package io.trainplane.cli;

import io.trainplane.aws.ec2.ControlPlaneLogGroup;
import io.trainplane.aws.ec2.Ec2DesiredState;
import io.trainplane.aws.ec2.EfaInterfaces;
import io.trainplane.aws.eks.EksAddons;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.aws.eks.WarmNodegroups;
import io.trainplane.spec.ClusterSpec;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import io.trainplane.spec.RunSpec;
import io.trainplane.spec.VolumeType;
import java.util.ArrayList;
import java.util.List;

/** The AWS resources a run would create or use, one line each, from the same builders the steps use. */
final class AwsPlan {
    private AwsPlan() {}

    static List<String> of(RunSpec spec) {
        Names names = spec.names();
        List<String> lines = new ArrayList<>();
        ClusterSpec cluster = spec.cluster();
        if (cluster.created()) {
            NodeGroupSpec nodes = cluster.nodeGroup();
            lines.add("CloudWatch log group " + ControlPlaneLogGroup.name(names.clusterName())
                    + " (through Cloud Control, before the cluster): the stack's LogRetentionDays"
                    + (spec.cleanup().keepCluster() ? " (kept with the cluster)" : " (deleted after the cluster)"));
            lines.add("EKS cluster " + names.clusterName() + ": Kubernetes " + cluster.kubernetesVersion()
                    + ", authentication API_AND_CONFIG_MAP, control-plane logs api/audit/authenticator,"
                    + " private endpoint and a public one for the stack's ClusterEndpointPublicCidrs"
                    + (spec.cleanup().keepCluster() ? " (kept after the run)" : " (deleted after the run)"));
            lines.add("EC2 launch template " + Ec2DesiredState.systemLaunchTemplateName(names)
                    + " (through Cloud Control, for the system node group): IMDSv2 required, hop limit "
                    + Ec2DesiredState.METADATA_HOP_LIMIT);
            NodeGroupSpec system = EksRequests.systemNodeGroup();
            lines.add("EKS node group " + names.systemNodeGroupName() + " (system: CoreDNS, add-on controllers,"
                    + " the data job): " + system.nodes() + " × " + system.instanceType() + ", "
                    + system.capacityType().json() + ", AMI " + EksRequests.amiType(system) + ", untainted, label "
                    + EksRequests.NODE_POOL_LABEL + "=" + EksRequests.SYSTEM_POOL
                    + ", launch template " + Ec2DesiredState.systemLaunchTemplateName(names)
                    + ", in the workers' subnets");
            lines.add("EKS node group " + names.nodeGroupName() + " (workers: training and evaluation): "
                    + nodes.nodes() + " × " + String.join(" | ", nodes.types())
                    + ", " + nodes.capacityType().json()
                    + (nodes.types().size() > 1
                            ? " (each node one of " + nodes.types().size()
                                    + " types, as EC2's price-capacity-optimized Spot allocation picks)"
                            : "")
                    + ", AMI " + EksRequests.amiType(nodes)
                    + ", label " + EksRequests.NODE_POOL_LABEL + "=" + EksRequests.WORKER_POOL
                    + (nodes.gpusPerNode() > 0
                            ? ", " + nodes.gpusPerNode() + " GPUs per node, taint nvidia.com/gpu"
                            : "")
                    + (nodes.capacityReservationId() != null
                            ? ", in the stack's subnets of the reservation's Availability Zone (chosen when the run creates it)"
                            : ""));
            if (Ec2DesiredState.needsPlacementGroup(nodes)) {
                lines.add("EC2 cluster placement group (through Cloud Control), for EFA");
            }
            lines.add("EC2 launch template " + Ec2DesiredState.launchTemplateName(names) + " (through Cloud Control):"
                    + " IMDSv2 required, hop limit " + Ec2DesiredState.METADATA_HOP_LIMIT
                    + (nodes.capacityReservationId() != null
                            ? ", capacity reservation " + nodes.capacityReservationId()
                            : "")
                    + (nodes.efa() ? ", " + EfaInterfaces.count(nodes.firstType()) + " EFA interfaces" : ""));
            lines.add("EKS add-on " + EksAddons.POD_IDENTITY_AGENT);
            if (spec.volume().type() == VolumeType.EFS) {
                lines.add("EKS add-on " + EksAddons.EFS_CSI_DRIVER
                        + " with a Pod Identity association to the stack's EFS CSI role");
            }
            if (spec.volume().type() == VolumeType.FSX_LUSTRE) {
                lines.add("EKS add-on " + EksAddons.FSX_CSI_DRIVER
                        + " with a Pod Identity association to the stack's FSx CSI role");
            }
            if (nodes.gpusPerNode() > 0) {
                lines.add("NVIDIA device plugin DaemonSet in kube-system, on the workers");
            }
            if (nodes.efa()) {
                lines.add("AWS EFA device plugin DaemonSet in kube-system, on the workers (each training pod asks for "
                        + "vpc.amazonaws.com/efa)");
            }
        } else {
            lines.add("EKS cluster " + cluster.name() + " (existing: used, never modified)");
            if (cluster.warm()) {
                int nodes = cluster.warmNodes(spec.training().workers());
                lines.add("EKS node group " + cluster.nodegroupName() + " of " + cluster.name() + " (warm: claimed for"
                        + " the run, scaled from 0 to " + nodes + " nodes with UpdateNodegroupConfig, back to 0 right"
                        + " after the evaluation and by every cleanup; needs the tag " + WarmNodegroups.WARM_TAG
                        + "=true, minSize 0, maxSize ≥ " + nodes + ")");
            }
        }
        if (spec.volume().type() == VolumeType.EFS) {
            lines.add(
                    spec.volume().fileSystemId() != null
                            ? "EFS file system " + spec.volume().fileSystemId()
                                    + " (adopted: never deleted), a mount target in each"
                                    + " Availability Zone of the cluster subnets where missing, the cluster's security group added to"
                                    + " its mount targets for the run"
                            : "EFS file system (encrypted, elastic throughput, CreationToken "
                                    + names.efsCreationToken() + ")"
                                    + " with a mount target in each Availability Zone of the cluster subnets"
                                    + (spec.cleanup().keepVolume() ? " (kept after the run)" : ""));
        }
        if (spec.volume().type() == VolumeType.FSX_LUSTRE) {
            var volume = spec.volume();
            lines.add(
                    volume.fileSystemId() != null
                            ? "FSx for Lustre file system " + volume.fileSystemId()
                                    + " (adopted: never deleted; its security groups must admit the cluster's nodes on"
                                    + " TCP 988 and 1018-1023)"
                            : volume.lustreDescription() + " (ClientRequestToken " + names.lustreRequestToken()
                                    + ") in the first cluster subnet, guarded by the cluster's security group"
                                    + (volume.s3ImportPath() == null
                                            ? ""
                                            : ", linked to " + volume.s3ImportPath()
                                                    + (volume.s3ExportPath() == null
                                                            ? ""
                                                            : " (exports to " + volume.s3ExportPath() + ")"))
                                    + (spec.cleanup().keepVolume() ? " (kept after the run)" : ""));
        }
        if (spec.training().resumeFrom() != null) {
            lines.add("S3 read of the checkpoint " + spec.training().resumeFrom()
                    + (io.trainplane.spec.CheckpointUri.isUri(spec.training().resumeFrom())
                            ? ""
                            : " (a run ID: StartRun takes the checkpoint that run's outputs kept)")
                    + " and its .sha256, fetched onto the volume by the data pod before the training");
        }
        lines.add("EKS Pod Identity association of ServiceAccount trainplane-run in " + names.namespace()
                + " with the stack's RunOutputsRole (deleted after the run); S3 objects under "
                + (spec.output().s3Uri() == null
                        ? "the stack's artifacts bucket, runs/" + names.runId() + "/"
                        : spec.output().s3Uri())
                + ": model.pt, the metrics, the last checkpoint, and checkpoints/ synced while training"
                + " (kept: cleanup never deletes them)");
        return lines;
    }
}
