package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.trainplane.spec.SecretRef;
import io.trainplane.spec.WorkloadCommand;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A command's secrets by reference ({@link SecretRef}) in its pod. The init container {@value
 * #CONTAINER} reads each with the AWS CLI as the run's Pod Identity and writes its value to a file
 * of a memory-backed emptyDir (never on the node's disk); the workload container mounts it
 * read-only and its command runs under a shell that exports each file as a variable, then execs
 * the command. The pod spec, and so the Kubernetes API, its events and the run's records, hold the
 * references only; nothing prints a value.
 */
public final class SecretFetch {
    public static final String CONTAINER = "fetch-secrets";

    /** Where the values are, one file per variable, named as it. */
    public static final String DIR = "/var/run/trainplane/secrets";

    static final String VOLUME = "trainplane-secrets";

    /** The init container's variables with the references (an ARN or a parameter's name, never a value): prefix and the target variable's name. */
    public static final String REF_ENV_PREFIX = "SECRET_REF_";

    /** fetch-secrets' exit code when a read failed; its termination message names the variable and what AWS said. */
    public static final int FETCH_FAILED = 4;

    private static final String SHELL = "/bin/sh";

    // "$0" "$@": the command, as given after the script (as TermExit). ${f##*/}: the file's name
    // without basename, which an image may lack. An empty directory leaves the glob as it is.
    static final String EXPORT_SCRIPT = "for f in " + DIR + "/*; do [ -f \"$f\" ] || continue;"
            + " export \"${f##*/}=$(cat \"$f\")\"; done; exec \"$0\" \"$@\"";

    private SecretFetch() {}

    /**
     * Adds {@code command}'s secrets to {@code pod} when it has any: the init container after the
     * others (fetch-code first), the memory volume, its read-only mount and the wrapped command of
     * the first container, and the run's identity, which the reads need.
     */
    static void addTo(PodSpec pod, WorkloadCommand command, String image, ResourceRequirements resources) {
        if (command == null || command.secrets().isEmpty()) {
            return;
        }
        Container workload = pod.getContainers().getFirst();
        workload.setCommand(wrap(workload.getCommand()));
        List<VolumeMount> mounts = new ArrayList<>(workload.getVolumeMounts());
        mounts.add(mount(true));
        workload.setVolumeMounts(mounts);
        List<io.fabric8.kubernetes.api.model.Volume> volumes = new ArrayList<>(pod.getVolumes());
        volumes.add(new VolumeBuilder()
                .withName(VOLUME)
                .withNewEmptyDir()
                .withMedium("Memory")
                .endEmptyDir()
                .build());
        pod.setVolumes(volumes);
        List<Container> init = new ArrayList<>(pod.getInitContainers() == null ? List.of() : pod.getInitContainers());
        init.add(container(command.secrets(), image, resources));
        pod.setInitContainers(init);
        pod.setServiceAccountName(io.trainplane.aws.eks.PodIdentity.RUN_SERVICE_ACCOUNT);
    }

    /**
     * Reads each secret into {@value #DIR}: files 0444 (umask 222) so that the workload reads them
     * whatever its user, in a volume only this pod mounts. A failed read writes the variable, the
     * reference and the AWS CLI's words (never a value: its output goes to the file) to the
     * termination message and exits {@value #FETCH_FAILED}. No {@code set -x}: nothing echoes.
     */
    static Container container(Map<String, SecretRef> secrets, String image, ResourceRequirements resources) {
        List<String> lines = new ArrayList<>(List.of(
                "set -eu",
                "umask 222",
                "fail() { printf 'SECRET FETCH FAILED %s (%s): %s\\n' \"$1\" \"$2\" \"$3\" > /dev/termination-log;"
                        + " exit " + FETCH_FAILED + "; }"));
        List<EnvVar> env = new ArrayList<>();
        secrets.forEach((name, ref) -> {
            String var = REF_ENV_PREFIX + name;
            env.add(WorkloadManifests.env(var, reference(ref)));
            String region = ref.region().map(r -> " --region " + r).orElse("");
            String read =
                    switch (ref) {
                        case SecretRef.SecretsManager s ->
                            "aws secretsmanager get-secret-value" + region + " --secret-id \"$" + var
                                    + "\" --query SecretString --output text";
                        case SecretRef.SsmParameter p ->
                            "aws ssm get-parameter" + region + " --with-decryption --name \"$" + var
                                    + "\" --query Parameter.Value --output text";
                    };
            lines.add("if ! err=$(" + read + " 2>&1 > " + DIR + "/" + name + "); then fail " + name + " \"$" + var
                    + "\" \"$err\"; fi");
        });
        return new ContainerBuilder()
                .withName(CONTAINER)
                .withImage(image)
                .withCommand(SHELL, "-c", String.join("\n", lines))
                .withEnv(env)
                .withResources(resources)
                .withTerminationMessagePath("/dev/termination-log")
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .withVolumeMounts(mount(false))
                .build();
    }

    /** What the spec names: the secret's ARN, or the parameter's name or ARN. */
    static String reference(SecretRef ref) {
        return switch (ref) {
            case SecretRef.SecretsManager s -> s.arn();
            case SecretRef.SsmParameter p -> p.parameter();
        };
    }

    /** The references of a pod's {@value #CONTAINER}, by variable name; empty without one. */
    public static Map<String, SecretRef> references(io.fabric8.kubernetes.api.model.Pod pod) {
        Map<String, SecretRef> refs = new LinkedHashMap<>();
        List<Container> init = pod.getSpec().getInitContainers();
        (init == null ? List.<Container>of() : init)
                .stream()
                        .filter(c -> c.getName().equals(CONTAINER))
                        .flatMap(c -> c.getEnv().stream())
                        .filter(e -> e.getName().startsWith(REF_ENV_PREFIX))
                        .forEach(e -> refs.put(
                                e.getName().substring(REF_ENV_PREFIX.length()),
                                SecretRef.SecretsManager.ARN
                                                .matcher(e.getValue())
                                                .matches()
                                        ? new SecretRef.SecretsManager(e.getValue())
                                        : new SecretRef.SsmParameter(e.getValue())));
        return refs;
    }

    private static VolumeMount mount(boolean readOnly) {
        return new VolumeMountBuilder()
                .withName(VOLUME)
                .withMountPath(DIR)
                .withReadOnly(readOnly ? true : null)
                .build();
    }

    /** {@code command} under the shell that exports the secrets first. */
    public static List<String> wrap(List<String> command) {
        List<String> wrapped = new ArrayList<>(List.of(SHELL, "-c", EXPORT_SCRIPT));
        wrapped.addAll(command);
        return wrapped;
    }

    /** The command {@link #wrap} was given, when {@code command} is one it made. */
    public static Optional<List<String>> unwrap(List<String> command) {
        if (command == null
                || command.size() < 4
                || !command.get(0).equals(SHELL)
                || !command.get(1).equals("-c")
                || !command.get(2).equals(EXPORT_SCRIPT)) {
            return Optional.empty();
        }
        return Optional.of(List.copyOf(command.subList(3, command.size())));
    }
}
