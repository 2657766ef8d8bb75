package io.trainplane.aws;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * What a function needs to know about the stack it belongs to. On AWS these come from the
 * environment variables template.yaml sets; local mode and tests build them directly.
 * {@code stackName} (null when unknown, as in local mode) goes into the commands the run's errors
 * tell people to run.
 */
public record Settings(String tableName, String eventBusName, String region, ClusterNetwork network, ClusterRoles roles,
                       String stackName) {

    /** Settings of no particular stack. */
    public Settings(String tableName, String eventBusName, String region, ClusterNetwork network, ClusterRoles roles) {
        this(tableName, eventBusName, region, network, roles, null);
    }

    public static Settings fromEnvironment() {
        return fromMap(System.getenv());
    }

    static Settings fromMap(Map<String, String> env) {
        return new Settings(
                require(env, "RUNS_TABLE"),
                env.getOrDefault("EVENT_BUS_NAME", "trainplane"),
                env.getOrDefault("AWS_REGION", "us-east-1"),
                new ClusterNetwork(list(env, "CLUSTER_SUBNET_IDS"), list(env, "CLUSTER_SECURITY_GROUP_IDS")),
                new ClusterRoles(env.getOrDefault("CLUSTER_ROLE_ARN", ""), env.getOrDefault("NODE_ROLE_ARN", ""),
                        env.getOrDefault("EFS_CSI_ROLE_ARN", "")),
                env.get("STACK_NAME"));
    }

    private static List<String> list(Map<String, String> env, String name) {
        String value = env.getOrDefault(name, "");
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static String require(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set; template.yaml sets it");
        }
        return value;
    }
}
