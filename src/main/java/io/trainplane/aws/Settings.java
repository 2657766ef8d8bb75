package io.trainplane.aws;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a function needs to know about the stack it belongs to. On AWS these come from the
 * environment variables template.yaml sets; local mode and tests build them directly.
 *
 * @param stackName        the stack's name: every resource a run creates is tagged with it
 *                         ({@link RunTags#STACK_TAG}), and the janitor touches only its own stack's
 * @param logRetentionDays how long the control-plane log group of a run's cluster keeps its logs
 * @param adoptableFileSystemIds the EFS file systems runs may adopt ({@code volume.fileSystemId}): the
 *                         stack parameter AdoptableFileSystemIds, which its role's policy names too
 * @param artifactsBucket  the stack's bucket for runs' outputs (stack output ArtifactsBucketName), "" when unknown
 * @param lustreDataBuckets the buckets an FSx for Lustre file system may be linked to: the stack
 *                         parameter LustreDataBuckets, which its role's policy names too
 * @param existingClusterNamePrefix what the name of a cluster runs may use (modes existing and
 *                         warm) starts with: the stack parameter ExistingClusterNamePrefix, which its
 *                         role's policy names too ("" admits any name)
 * @param ceilings         what the stack lets one run spend ({@link RunCeilings}: its parameters MaxNodesPerRun, …)
 * @param stackId          this deployment of the stack: the UUID in AWS::StackId, which CloudFormation
 *                         makes anew when it creates the stack ({@link RunTags#STACK_ID_TAG}); null when
 *                         unknown, and then the janitor goes by the stack's name alone
 * @param runSecretsPrefix what the secrets and SSM parameters a run's pods may read are named with
 *                         (commands.*.env by reference): the stack parameter RunSecretsPrefix, which
 *                         RunOutputsRole's policy names too
 */
public record Settings(
        String stackName,
        String tableName,
        String eventBusName,
        String region,
        ClusterNetwork network,
        ClusterRoles roles,
        int logRetentionDays,
        List<String> adoptableFileSystemIds,
        String artifactsBucket,
        List<String> lustreDataBuckets,
        String existingClusterNamePrefix,
        RunCeilings ceilings,
        String stackId,
        String runSecretsPrefix) {
    /**
     * The retentions CloudWatch Logs accepts (PutRetentionPolicy's retentionInDays):
     * https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html
     */
    public static final Set<Integer> RETENTION_DAYS = Set.of(
            1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653);

    /** template.yaml's default of RunSecretsPrefix, for settings that do not come from a stack (StackConsistencyTest checks they agree). */
    public static final String DEFAULT_RUN_SECRETS_PREFIX = "trainplane/";

    public Settings {
        adoptableFileSystemIds = List.copyOf(adoptableFileSystemIds);
        lustreDataBuckets = List.copyOf(lustreDataBuckets);
        existingClusterNamePrefix = existingClusterNamePrefix == null ? "" : existingClusterNamePrefix;
        artifactsBucket = artifactsBucket == null ? "" : artifactsBucket;
        ceilings = ceilings == null ? RunCeilings.NONE : ceilings;
        runSecretsPrefix = runSecretsPrefix == null ? DEFAULT_RUN_SECRETS_PREFIX : runSecretsPrefix;
        if (!RETENTION_DAYS.contains(logRetentionDays)) {
            throw new IllegalArgumentException(
                    "log retention of " + logRetentionDays + " days: CloudWatch Logs takes one of "
                            + RETENTION_DAYS.stream().sorted().toList());
        }
    }

    /** Settings of a stack that lets runs adopt no file system. */
    public Settings(
            String stackName,
            String tableName,
            String eventBusName,
            String region,
            ClusterNetwork network,
            ClusterRoles roles,
            int logRetentionDays) {
        this(stackName, tableName, eventBusName, region, network, roles, logRetentionDays, List.of());
    }

    /** Settings of a stack without an artifacts bucket. */
    public Settings(
            String stackName,
            String tableName,
            String eventBusName,
            String region,
            ClusterNetwork network,
            ClusterRoles roles,
            int logRetentionDays,
            List<String> adoptableFileSystemIds) {
        this(
                stackName,
                tableName,
                eventBusName,
                region,
                network,
                roles,
                logRetentionDays,
                adoptableFileSystemIds,
                "",
                List.of(),
                "",
                RunCeilings.NONE,
                null,
                null);
    }

    public static Settings fromEnvironment() {
        return fromMap(System.getenv());
    }

    public static Settings fromMap(Map<String, String> env) {
        List<String> publicCidrs = list(env, "CLUSTER_ENDPOINT_PUBLIC_CIDRS");
        List<String> problems = PublicAccessCidrs.problems(publicCidrs);
        if (!problems.isEmpty()) {
            throw new IllegalStateException("stack parameter ClusterEndpointPublicCidrs (environment variable"
                    + " CLUSTER_ENDPOINT_PUBLIC_CIDRS) is refused: " + String.join("; ", problems)
                    + ". Update the stack with at most " + PublicAccessCidrs.MAX + " public IPv4 blocks, or leave it"
                    + " empty (EKS's default: every address)");
        }
        String retention = env.getOrDefault("CONTROL_PLANE_LOG_RETENTION_DAYS", "30");
        int days;
        try {
            days = Integer.parseInt(retention.trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(
                    "stack parameter LogRetentionDays (environment variable"
                            + " CONTROL_PLANE_LOG_RETENTION_DAYS) is not a number of days: '" + retention + "'",
                    e);
        }
        if (!RETENTION_DAYS.contains(days)) {
            throw new IllegalStateException("stack parameter LogRetentionDays (environment variable"
                    + " CONTROL_PLANE_LOG_RETENTION_DAYS) is " + days + ": CloudWatch Logs takes one of "
                    + RETENTION_DAYS.stream().sorted().toList());
        }
        return new Settings(
                require(env, "STACK_NAME"),
                require(env, "RUNS_TABLE"),
                env.getOrDefault("EVENT_BUS_NAME", "trainplane"),
                env.getOrDefault("AWS_REGION", "us-east-1"),
                new ClusterNetwork(
                        list(env, "CLUSTER_SUBNET_IDS"), list(env, "CLUSTER_SECURITY_GROUP_IDS"), publicCidrs),
                new ClusterRoles(
                        env.getOrDefault("CLUSTER_ROLE_ARN", ""),
                        env.getOrDefault("NODE_ROLE_ARN", ""),
                        env.getOrDefault("EFS_CSI_ROLE_ARN", ""),
                        env.getOrDefault("RUN_OUTPUTS_ROLE_ARN", ""),
                        env.getOrDefault("FSX_CSI_ROLE_ARN", "")),
                days,
                list(env, "ADOPTABLE_FILE_SYSTEM_IDS"),
                env.getOrDefault("ARTIFACTS_BUCKET", ""),
                list(env, "LUSTRE_DATA_BUCKETS"),
                env.getOrDefault("EXISTING_CLUSTER_NAME_PREFIX", ""),
                RunCeilings.fromMap(env),
                env.get("STACK_ID"),
                env.get("RUN_SECRETS_PREFIX"));
    }

    /**
     * The account the stack is deployed in, from its RunOutputsRole's ARN
     * (arn:PARTITION:iam::ACCOUNT:role/NAME); empty when unknown (settings not from a stack).
     */
    public java.util.Optional<String> account() {
        String[] arn = roles().runOutputsRoleArn().split(":");
        return arn.length > 4 && arn[4].matches("[0-9]{12}")
                ? java.util.Optional.of(arn[4])
                : java.util.Optional.empty();
    }

    private static List<String> list(Map<String, String> env, String name) {
        String value = env.getOrDefault(name, "");
        return Arrays.stream(value.split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
    }

    private static String require(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("environment variable " + name + " is not set; template.yaml sets it");
        }
        return value;
    }
}
