package io.trainplane.spec;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Every name a run gives to what it creates, derived from its runId and always valid for the
 * service that receives it. A name too long for its service is cut by {@link #fit(String, int)}.
 * The same runId always gives the same names (Step Functions may run a step twice).
 */
public final class Names {
    /**
     * A run id is a DNS-1123 label, so it is also a valid label value and name part everywhere; at
     * most 60 characters, so that its namespace {@code tp-<runId>} is never cut: each run has a
     * namespace of its own, and with it the artifacts prefix EKS Pod Identity confines its pods to
     * ({@link #artifactsPrefix}). A cut name ends in a hash, which a shorter run id could spell.
     */
    public static final String RUN_ID_PATTERN = "^[a-z0-9]([a-z0-9-]{0,58}[a-z0-9])?$";

    static final String RUN_ID_MEANING =
            "1 to 60 lowercase letters, digits and '-', starting and ending with a letter or a digit";

    /** Longest Job name: the pod names and the job-name label derived from it must fit in 63. */
    public static final int MAX_JOB_NAME = 52;
    /** Kubernetes labels (DNS-1123 and DNS-1035 labels). */
    public static final int MAX_LABEL = 63;

    public static final int MAX_EKS_CLUSTER_NAME = 100;
    public static final int MAX_EKS_NODEGROUP_NAME = 63;
    public static final int MAX_TOKEN = 64;
    public static final int MAX_EXECUTION_NAME = 80;

    public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";
    public static final String PART_OF_LABEL = "app.kubernetes.io/part-of";
    public static final String RUN_ID_LABEL = "trainplane/run-id";
    /**
     * The AWS tag on every resource of a run (the janitor finds resources by it); beside it, the
     * stack's ({@code io.trainplane.aws.RunTags}).
     */
    public static final String RUN_ID_TAG = "trainplane:run-id";

    private static final Pattern RUN_ID = Pattern.compile(RUN_ID_PATTERN);
    private static final Pattern OPERATION = Pattern.compile("[A-Za-z0-9-]{1,40}");
    private static final int HASH_LENGTH = 8;
    /** What the names of a run's resources start with (its cluster: tp-<runId>-eks). */
    public static final String PREFIX = "tp-";
    /** The longest run id: its namespace, {@link #PREFIX} and the id, is a whole label. */
    public static final int MAX_RUN_ID = MAX_LABEL - PREFIX.length();

    private final String runId;

    /** @throws IllegalArgumentException when {@code runId} is not a valid run id */
    public Names(String runId) {
        if (!isValidRunId(runId)) {
            throw new IllegalArgumentException("not a valid run id (" + RUN_ID_MEANING + "): " + runId);
        }
        this.runId = runId;
    }

    public static boolean isValidRunId(String runId) {
        return runId != null && RUN_ID.matcher(runId).matches();
    }

    public String runId() {
        return runId;
    }

    /**
     * The run's prefix in the stack's artifacts bucket, {@code runs/<namespace>/}: all its pods may
     * read or write, since EKS Pod Identity tags their sessions with their namespace and
     * template.yaml's RunOutputsRole allows {@code runs/${aws:PrincipalTag/kubernetes-namespace}/*}.
     */
    public String artifactsPrefix() {
        return "runs/" + namespace() + "/";
    }

    /** Kubernetes namespace of the run: a DNS-1123 label, {@code tp-<runId>} whole. */
    public String namespace() {
        return PREFIX + runId;
    }

    /** The training Job (or PyTorchJob). */
    public String trainingJob() {
        return fit(PREFIX + runId + "-train", MAX_JOB_NAME);
    }

    /** Headless Service of the training pods (DNS-1035 label: starts with a letter). */
    public String trainingService() {
        return fit(PREFIX + runId + "-workers", MAX_LABEL);
    }

    public String evaluationJob() {
        return fit(PREFIX + runId + "-eval", MAX_JOB_NAME);
    }

    /** The Job that copies the run's outputs to S3. */
    public String outputsJob() {
        return fit(PREFIX + runId + "-outputs", MAX_JOB_NAME);
    }

    /** The DaemonSet that pulls the training image onto the nodes ahead of the pods. */
    public String imagePrepull() {
        return fit(PREFIX + runId + "-prepull", MAX_JOB_NAME);
    }

    public String dataJob() {
        return fit(PREFIX + runId + "-data", MAX_JOB_NAME);
    }

    /** ConfigMap holding the workload scripts. */
    public String configMap() {
        return fit(PREFIX + runId + "-scripts", MAX_LABEL);
    }

    /** StorageClass and PersistentVolume of the run's EFS volume: cluster-scoped, so named per run. */
    public String volume() {
        return fit(PREFIX + runId + "-efs", MAX_LABEL);
    }

    /** StorageClass and PersistentVolume of the run's FSx for Lustre volume. */
    public String lustreVolume() {
        return fit(PREFIX + runId + "-fsx", MAX_LABEL);
    }

    /** EKS cluster created for the run. */
    public String clusterName() {
        return fit(PREFIX + runId + "-eks", MAX_EKS_CLUSTER_NAME);
    }

    /** EKS managed node group created for the run. */
    public String nodeGroupName() {
        return fit(PREFIX + runId + "-nodes", MAX_EKS_NODEGROUP_NAME);
    }

    /** EKS managed node group of the created cluster's system pods (CoreDNS, add-on controllers, the data job). */
    public String systemNodeGroupName() {
        return fit(PREFIX + runId + "-system", MAX_EKS_NODEGROUP_NAME);
    }

    /** EFS CreationToken: creating the file system twice returns the same one. */
    public String efsCreationToken() {
        return fit(PREFIX + runId + "-efs", MAX_TOKEN);
    }

    /**
     * ClientRequestToken of the run's FSx for Lustre CreateFileSystem (at most 63 characters,
     * https://docs.aws.amazon.com/fsx/latest/APIReference/API_CreateFileSystem.html): a retry with
     * it gets the same file system. Also its Name tag.
     */
    public String lustreRequestToken() {
        return fit(PREFIX + runId + "-fsx", 63);
    }

    /**
     * Idempotency token of one AWS operation of the run (EKS clientRequestToken): the same for
     * every retry of that operation, different for each operation.
     *
     * @param operation a constant such as {@code "CreateCluster"}: 1 to 40 letters, digits, '-'
     */
    public String clientRequestToken(String operation) {
        if (operation == null || !OPERATION.matcher(operation).matches()) {
            throw new IllegalArgumentException("operation must be 1 to 40 letters, digits or '-': " + operation);
        }
        return fit(PREFIX + runId + "-" + operation, MAX_TOKEN);
    }

    /** Step Functions execution name of the run: the runId itself (DESIGN §2). */
    public String executionName() {
        return fit(runId, MAX_EXECUTION_NAME);
    }

    /** Labels of every Kubernetes object of the run. */
    public Map<String, String> labels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(MANAGED_BY_LABEL, "trainplane");
        labels.put(PART_OF_LABEL, "trainplane");
        labels.put(RUN_ID_LABEL, runId);
        return java.util.Collections.unmodifiableMap(labels);
    }

    /**
     * {@code base} if it has at most {@code max} characters; otherwise its start, without trailing
     * separators, then '-' and the first 8 hex digits of the SHA-256 of the whole {@code base}. Two
     * long names that differ anywhere stay different; the result ends with a letter or digit.
     */
    public static String fit(String base, int max) {
        if (max <= HASH_LENGTH + 1) {
            throw new IllegalArgumentException("a name limit must leave room for the hash: " + max);
        }
        if (base.length() <= max) {
            return base;
        }
        String head = base.substring(0, max - HASH_LENGTH - 1).replaceAll("[-_.]+$", "");
        return head + "-" + sha256Hex(base).substring(0, HASH_LENGTH);
    }

    private static String sha256Hex(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    @Override
    public String toString() {
        return "Names[" + runId + "]";
    }
}
