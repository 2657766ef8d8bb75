package io.trainplane.aws.ec2;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.RunTags;
import io.trainplane.core.Json;
import io.trainplane.spec.Names;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.services.cloudcontrol.model.CreateResourceRequest;

/**
 * The CloudWatch log group of a run's cluster's control-plane logs, which the run makes itself,
 * through Cloud Control, before it asks for the cluster.
 *
 * <p>EKS sends the logs of a cluster to the log group {@code /aws/eks/<cluster>/cluster}
 * (https://docs.aws.amazon.com/eks/latest/userguide/control-plane-logs.html). When that group
 * does not exist, EKS creates it on its own: untagged, kept forever, and left behind when the
 * cluster goes. When it exists first, EKS writes into it, which is why infrastructure tools make
 * it before the cluster "to prevent ordering issues with EKS automatically creating the log
 * group first" (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_cluster).
 * So the run makes it first, with the stack's retention and the run's tags; teardown deletes it
 * once the cluster is gone (or keeps it with a kept cluster).
 */
public final class ControlPlaneLogGroup {
    public static final String TYPE = "AWS::Logs::LogGroup";
    /** Client-token operation of its create (see {@link Names#clientRequestToken}). */
    public static final String OPERATION = "log-group";
    /** How events and the inventory name it: {@code logs:log-group//aws/eks/<cluster>/cluster}. */
    public static final String REF_PREFIX = "logs:log-group/";

    private static final Pattern RUN_LOG_GROUP = Pattern.compile("/aws/eks/(tp-[a-z0-9-]+)/cluster");

    private ControlPlaneLogGroup() {}

    public static String name(String clusterName) {
        return "/aws/eks/" + clusterName + "/cluster";
    }

    /** The cluster whose log group {@code logGroupName} would be, when it is named like a run cluster's. */
    public static Optional<String> runCluster(String logGroupName) {
        Matcher m = RUN_LOG_GROUP.matcher(logGroupName);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** Its desired state (the AWS::Logs::LogGroup schema's properties). */
    public static ObjectNode desiredState(Names names, RunTags tags, int retentionDays) {
        ObjectNode group = Json.NODES.objectNode();
        group.put("LogGroupName", name(names.clusterName()));
        group.put("RetentionInDays", retentionDays);
        group.set("Tags", tags.asTagList());
        return group;
    }

    public static CreateResourceRequest create(Names names, RunTags tags, int retentionDays) {
        return CreateResourceRequest.builder()
                .typeName(TYPE)
                .desiredState(Json.write(desiredState(names, tags, retentionDays)))
                .clientToken(names.clientRequestToken(OPERATION))
                .build();
    }
}
