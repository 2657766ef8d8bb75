package io.trainplane.aws.ec2;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunTags;
import io.trainplane.core.Json;
import io.trainplane.spec.CapacityType;
import io.trainplane.spec.Names;
import io.trainplane.spec.NodeGroupSpec;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;

/**
 * The EC2 objects of a run as Cloud Control desired states (the CloudFormation resource schemas'
 * property names): pure functions of the spec, printed by {@code trainplane plan} and unit-tested
 * without an endpoint. The JSON is the same on every attempt (fields in a fixed order, tags
 * sorted), so a retried create with the same client token is the same request.
 */
public final class Ec2DesiredState {
    public static final String LAUNCH_TEMPLATE = "AWS::EC2::LaunchTemplate";
    public static final String PLACEMENT_GROUP = "AWS::EC2::PlacementGroup";
    /** Client-token operations (see {@link Names#clientRequestToken}). */
    public static final String LAUNCH_TEMPLATE_OPERATION = "launch-template";

    public static final String SYSTEM_LAUNCH_TEMPLATE_OPERATION = "system-launch-template";

    public static final String PLACEMENT_GROUP_OPERATION = "placement-group";
    public static final int MAX_LAUNCH_TEMPLATE_NAME = 128;

    private Ec2DesiredState() {}

    /**
     * The nodes' instance metadata service: IMDSv2 only, and a PUT response hop limit of 1, so
     * that a token cannot reach a pod's network namespace (one hop further) and pods cannot take
     * the node role's credentials. Without a launch template of its own, a managed node group
     * gets one EKS generates with the AMI's defaults, and AL2023 sets the hop limit to 2 "to
     * allow for containerized workload support"
     * (https://docs.aws.amazon.com/linux/al2023/ug/imdsv2.html): so each node group of a run gets
     * a template of the run's, the workers' {@link #launchTemplate} and the system node group's
     * {@link #systemLaunchTemplate} (whose pods, the data job and the add-ons' controllers, would
     * otherwise reach the node role). EKS recommends these settings in the launch template of managed
     * nodes ("Restrict access to the instance profile assigned to the worker node",
     * https://docs.aws.amazon.com/eks/latest/best-practices/identity-and-access-management.html);
     * a managed node group accepts a launch template's metadata options, which are not among
     * the settings EKS prohibits in one
     * (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html).
     *
     * <p>What still works with hop limit 1: pods on the host network (the VPC CNI, kube-proxy, the
     * EKS Pod Identity agent, which serves pods at 169.254.170.23, not through IMDS:
     * https://docs.aws.amazon.com/eks/latest/userguide/pod-id-agent-setup.html), hence every pod
     * with a Pod Identity association (the EFS CSI controller); the EFS CSI driver reads its
     * region and zone from the Node object when IMDS is out of reach
     * (https://github.com/kubernetes-sigs/aws-efs-csi-driver/blob/master/pkg/cloud/k8s_metadata.go).
     * What no longer works: a pod borrowing the node role (a {@code data.s3Uri} download needs a
     * Pod Identity association for the workload's service account).
     */
    public static final int METADATA_HOP_LIMIT = 1;

    /**
     * EFA nodes go into a cluster placement group (low latency between them), except in a
     * Capacity Block: EC2 already places its instances close together, "so there is no need to use
     * a cluster placement group with a Capacity Block"
     * (https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/capacity-blocks-using.html).
     */
    public static boolean needsPlacementGroup(NodeGroupSpec nodeGroup) {
        return nodeGroup.efa() && nodeGroup.capacityType() != CapacityType.CAPACITY_BLOCK;
    }

    public static String launchTemplateName(Names names) {
        return Names.fit("tp-" + names.runId() + "-nodes", MAX_LAUNCH_TEMPLATE_NAME);
    }

    public static String systemLaunchTemplateName(Names names) {
        return Names.fit("tp-" + names.runId() + "-system", MAX_LAUNCH_TEMPLATE_NAME);
    }

    /**
     * The node group's launch template, which every node group of a run gets. It sets only what
     * the node group itself cannot: the instance metadata options ({@link #METADATA_HOP_LIMIT}),
     * the capacity reservation (and, for a Capacity Block, its market and the instance type), the
     * EFA interfaces, the placement group and the run's tags; EKS fills in the rest (image,
     * instance profile, user data).
     *
     * @param securityGroupIds given to every EFA interface (EKS cannot add its cluster security
     *                         group to interfaces a launch template declares); unused without EFA
     */
    public static ObjectNode launchTemplate(
            Names names,
            RunTags tags,
            NodeGroupSpec nodeGroup,
            Optional<String> placementGroupName,
            List<String> securityGroupIds) {
        if (nodeGroup.capacityType() == CapacityType.CAPACITY_BLOCK && nodeGroup.capacityReservationId() == null) {
            throw new IllegalArgumentException("a CAPACITY_BLOCK node group needs a capacityReservationId");
        }
        ObjectNode data = Json.NODES.objectNode();
        putMetadataOptions(data);
        putRootVolume(data, nodeGroup.diskGiB());
        if (nodeGroup.capacityReservationId() != null) {
            data.putObject("CapacityReservationSpecification")
                    .putObject("CapacityReservationTarget")
                    .put("CapacityReservationId", nodeGroup.capacityReservationId());
        }
        if (nodeGroup.capacityType() == CapacityType.CAPACITY_BLOCK) {
            data.putObject("InstanceMarketOptions").put("MarketType", "capacity-block");
            // EKS requires it of a Capacity Block's template (the node group then names none):
            // https://docs.aws.amazon.com/eks/latest/userguide/capacity-blocks-mng.html
            data.put("InstanceType", nodeGroup.firstType());
        }
        if (nodeGroup.efa()) {
            data.set("NetworkInterfaces", efaInterfaces(nodeGroup.firstType(), securityGroupIds));
        }
        placementGroupName.ifPresent(group -> data.putObject("Placement").put("GroupName", group));
        return template(launchTemplateName(names), data, tags);
    }

    /**
     * The system node group's launch template: only the instance metadata options
     * ({@link #METADATA_HOP_LIMIT}: IMDSv2 required, hop limit 1) and the run's tags. No
     * reservation, EFA or placement: the system node group is on-demand general-purpose capacity
     * ({@code EksRequests#systemNodeGroup}). Without it EKS would generate a template with the
     * AMI's hop limit of 2, and the data job and the add-ons' controllers on these nodes could take
     * the node role's credentials through IMDS
     * (https://docs.aws.amazon.com/eks/latest/best-practices/identity-and-access-management.html,
     * "Restrict access to the instance profile assigned to the worker node"; a managed node group
     * takes these options from a launch template:
     * https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html).
     */
    public static ObjectNode systemLaunchTemplate(Names names, RunTags tags, int diskGiB) {
        ObjectNode data = Json.NODES.objectNode();
        putMetadataOptions(data);
        putRootVolume(data, diskGiB);
        return template(systemLaunchTemplateName(names), data, tags);
    }

    /** The AL2023 EKS AMIs' root device (https://docs.aws.amazon.com/linux/al2023/ug/ebs.html: /dev/xvda). */
    public static final String ROOT_DEVICE = "/dev/xvda";

    /**
     * The root volume, sized for the images the nodes pull ({@code NodeDisk}): a gp3 volume,
     * encrypted, deleted with the instance. A managed node group takes it from its launch template
     * and then accepts no diskSize (https://docs.aws.amazon.com/eks/latest/userguide/launch-templates.html).
     */
    private static void putRootVolume(ObjectNode data, int diskGiB) {
        data.putArray("BlockDeviceMappings")
                .addObject()
                .put("DeviceName", ROOT_DEVICE)
                .putObject("Ebs")
                .put("VolumeSize", diskGiB)
                .put("VolumeType", "gp3")
                .put("Encrypted", true)
                .put("DeleteOnTermination", true);
    }

    /** IMDSv2 only, and a PUT response hop limit that keeps tokens on the node ({@link #METADATA_HOP_LIMIT}). */
    private static void putMetadataOptions(ObjectNode data) {
        data.putObject("MetadataOptions")
                .put("HttpEndpoint", "enabled")
                .put("HttpTokens", "required")
                .put("HttpPutResponseHopLimit", METADATA_HOP_LIMIT);
    }

    /** A launch template named {@code name}: the run's tags on it and on the instances and volumes it launches. */
    private static ObjectNode template(String name, ObjectNode data, RunTags tags) {
        ArrayNode instanceTags = data.putArray("TagSpecifications");
        instanceTags.add(tagSpecification("instance", tags));
        instanceTags.add(tagSpecification("volume", tags));

        ObjectNode template = Json.NODES.objectNode();
        template.put("LaunchTemplateName", name);
        template.set("LaunchTemplateData", data);
        template.putArray("TagSpecifications").add(tagSpecification("launch-template", tags));
        return template;
    }

    /**
     * One EFA interface per network card: card 0 carries the primary interface (device 0), the
     * others device 1, as AWS documents for multi-card instances.
     */
    static ArrayNode efaInterfaces(String instanceType, List<String> securityGroupIds) {
        ArrayNode interfaces = Json.NODES.arrayNode();
        int cards = EfaInterfaces.count(instanceType);
        for (int card = 0; card < cards; card++) {
            ObjectNode nic = interfaces.addObject();
            nic.put("DeviceIndex", card == 0 ? 0 : 1);
            nic.put("NetworkCardIndex", card);
            nic.put("InterfaceType", "efa");
            nic.put("DeleteOnTermination", true);
            if (!securityGroupIds.isEmpty()) {
                ArrayNode groups = nic.putArray("Groups");
                securityGroupIds.forEach(groups::add);
            }
        }
        return interfaces;
    }

    /** A cluster placement group (its name is chosen by EC2: the Cloud Control identifier). */
    public static ObjectNode placementGroup(RunTags tags) {
        ObjectNode group = Json.NODES.objectNode();
        group.put("Strategy", "cluster");
        group.set("Tags", tags.asTagList());
        return group;
    }

    public static CreateResourceRequest createLaunchTemplate(
            Names names,
            RunTags tags,
            NodeGroupSpec nodeGroup,
            Optional<String> placementGroupName,
            List<String> securityGroupIds) {
        return CreateResourceRequest.builder()
                .typeName(LAUNCH_TEMPLATE)
                .desiredState(json(launchTemplate(names, tags, nodeGroup, placementGroupName, securityGroupIds)))
                .clientToken(names.clientRequestToken(LAUNCH_TEMPLATE_OPERATION))
                .build();
    }

    public static CreateResourceRequest createSystemLaunchTemplate(Names names, RunTags tags, int diskGiB) {
        return CreateResourceRequest.builder()
                .typeName(LAUNCH_TEMPLATE)
                .desiredState(json(systemLaunchTemplate(names, tags, diskGiB)))
                .clientToken(names.clientRequestToken(SYSTEM_LAUNCH_TEMPLATE_OPERATION))
                .build();
    }

    public static CreateResourceRequest createPlacementGroup(Names names, RunTags tags) {
        return CreateResourceRequest.builder()
                .typeName(PLACEMENT_GROUP)
                .desiredState(json(placementGroup(tags)))
                .clientToken(names.clientRequestToken(PLACEMENT_GROUP_OPERATION))
                .build();
    }

    private static ObjectNode tagSpecification(String resourceType, RunTags tags) {
        ObjectNode spec = Json.NODES.objectNode();
        spec.put("ResourceType", resourceType);
        spec.set("Tags", tags.asTagList());
        return spec;
    }

    static String json(ObjectNode node) {
        return Json.write(node);
    }
}
