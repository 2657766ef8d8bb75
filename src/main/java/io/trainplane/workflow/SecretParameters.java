package io.trainplane.workflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.Settings;
import io.trainplane.spec.SecretRef;
import java.util.List;

/**
 * StartRun gives each SSM parameter named by its name alone the ARN of the stack's Region and
 * account: the pods' AWS CLI needs a Region to call SSM, and EKS Pod Identity sets none (it sets
 * only the credentials' variables, https://docs.aws.amazon.com/sdkref/latest/guide/feature-container-credentials.html).
 * A name's leading '/' is not repeated after {@code parameter/}
 * (https://docs.aws.amazon.com/systems-manager/latest/userguide/sysman-paramstore-access.html).
 */
final class SecretParameters {
    private SecretParameters() {}

    /** {@code spec} (normalized, changed in place) with every SSM parameter name an ARN; as it is when the account is unknown. */
    static ObjectNode qualify(ObjectNode spec, Settings settings) {
        String[] role = settings.roles().runOutputsRoleArn().split(":");
        if (settings.account().isEmpty() || role.length < 2) {
            return spec;
        }
        String prefix = "arn:" + role[1] + ":ssm:" + settings.region() + ":"
                + settings.account().get() + ":parameter/";
        for (String command : List.of("prepare", "train", "evaluate")) {
            JsonNode env = spec.at("/workload/commands/" + command + "/env");
            env.properties().forEach(e -> {
                JsonNode name = e.getValue().path(SecretRef.SsmParameter.FIELD);
                if (name.isTextual() && !name.asText().startsWith("arn:")) {
                    String bare = name.asText().startsWith("/") ? name.asText().substring(1) : name.asText();
                    ((ObjectNode) e.getValue()).put(SecretRef.SsmParameter.FIELD, prefix + bare);
                }
            });
        }
        return spec;
    }
}
