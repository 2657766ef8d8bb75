package io.trainplane.aws;

import java.util.Map;

/**
 * What a function needs to know about the stack it belongs to. On AWS these come from the
 * environment variables template.yaml sets; local mode and tests build them directly.
 */
public record Settings(String tableName, String eventBusName, String region) {

    public static Settings fromEnvironment() {
        return fromMap(System.getenv());
    }

    static Settings fromMap(Map<String, String> env) {
        return new Settings(
                require(env, "RUNS_TABLE"),
                env.getOrDefault("EVENT_BUS_NAME", "trainplane"),
                env.getOrDefault("AWS_REGION", "us-east-1"));
    }

    private static String require(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set; template.yaml sets it");
        }
        return value;
    }
}
