package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.WorkloadManifests;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The default workload's pods, simulated: training takes {@link #EPOCH} per epoch, evaluation
 * reports an accuracy that follows a plausible learning curve of the epochs trained (not a real
 * measurement: the process runtime runs the real scripts). A {@link ClusterFault}, when armed,
 * makes the pods fail the way a real cluster shows it.
 */
public final class SimulatedWorkload implements PodBehaviour {
    static final Duration EPOCH = Duration.ofSeconds(30);
    static final Duration EVALUATION = Duration.ofSeconds(40);
    static final Duration OTHER = Duration.ofSeconds(60);
    static final Duration DELETED_AFTER = Duration.ofMinutes(1);
    static final double LOW_ACCURACY = 0.12;

    private volatile ClusterFault fault;

    /** Arms a fault for the pods created from now on (null: none). */
    public void inject(ClusterFault fault) {
        this.fault = fault;
    }

    @Override
    public Outcome outcome(Job job, Pod pod, KubernetesClient client) {
        String component = component(job);
        return switch (component) {
            case "training" -> new Outcome(EPOCH.multipliedBy(epochs(job)), 0, null);
            case "evaluation" ->
                new Outcome(
                        EVALUATION,
                        0,
                        metrics(
                                fault == ClusterFault.LOW_ACCURACY
                                        ? LOW_ACCURACY
                                        : accuracyAfter(trainedEpochs(job, client))));
            case "data" ->
                fault == ClusterFault.BAD_CHECKSUM
                        ? new Outcome(
                                Duration.ofSeconds(20),
                                3,
                                "CHECKSUM MISMATCH expected " + argument(job, "--sha256")
                                        + " got 0000000000000000000000000000000000000000000000000000000000000000 for "
                                        + argument(job, "--url"))
                        : new Outcome(OTHER, 0, null);
            default -> new Outcome(OTHER, 0, null);
        };
    }

    /** A training pod prints what train.py prints after each epoch: {@code epoch N/M loss L}, its last lines. */
    @Override
    public Optional<String> log(Job job, Pod pod, Instant now) {
        if (!"training".equals(component(job))
                || pod.getStatus() == null
                || pod.getStatus().getStartTime() == null) {
            return Optional.empty();
        }
        int epochs = epochs(job);
        Duration running = Duration.between(Instant.parse(pod.getStatus().getStartTime()), now);
        long done = Math.min(epochs, Math.max(0, running.dividedBy(EPOCH)));
        StringBuilder log = new StringBuilder();
        for (long epoch = Math.max(1, done - 9); epoch <= done; epoch++) {
            log.append(String.format(
                    java.util.Locale.ROOT, "epoch %d/%d loss %.4f%n", epoch, epochs, 2.3 * Math.exp(-epoch / 5.0)));
        }
        return log.isEmpty() ? Optional.empty() : Optional.of(log.toString());
    }

    @Override
    public Optional<PodStatus> stuck(Job job, Pod pod, Instant created) {
        if (fault == null || !"training".equals(component(job))) {
            return Optional.empty();
        }
        return switch (fault) {
            case IMAGE_PULL -> Optional.of(FaultyPods.imagePullBackOff(pod, created));
            case CRASH_LOOP -> Optional.of(FaultyPods.crashLoopBackOff(pod, created));
            default -> Optional.empty();
        };
    }

    @Override
    public boolean deletedBySomeone(Job job, Instant now) {
        if (fault != ClusterFault.JOB_DELETED
                || !"training".equals(component(job))
                || job.getStatus() == null
                || job.getStatus().getStartTime() == null) {
            return false;
        }
        return !now.isBefore(Instant.parse(job.getStatus().getStartTime()).plus(DELETED_AFTER));
    }

    /**
     * Test accuracy of a ResNet on CIFAR-10 after {@code epochs}: chance (0.10) at the start, rising
     * to the low 0.90s that such a model reaches in a few dozen epochs (about 0.73 after 10, 0.92
     * after 30), so the GPU examples' gates (0.80, 0.85) are met as a real training would meet them.
     */
    static double accuracyAfter(int epochs) {
        return 0.10 + 0.83 * (1 - Math.exp(-epochs / 7.0));
    }

    private static String component(Job job) {
        return job.getMetadata().getLabels().getOrDefault(WorkloadManifests.COMPONENT, "");
    }

    private static String metrics(double accuracy) {
        return String.format(Locale.ROOT, "{\"accuracy\": %.4f, \"samples\": 10000, \"simulated\": 1}", accuracy);
    }

    private static int trainedEpochs(Job evaluation, KubernetesClient client) {
        String ns = evaluation.getMetadata().getNamespace();
        return client
                .batch()
                .v1()
                .jobs()
                .inNamespace(ns)
                .withLabel(WorkloadManifests.COMPONENT, "training")
                .list()
                .getItems()
                .stream()
                .findFirst()
                .or(() -> client
                        .genericKubernetesResources(PyTorchJobs.CONTEXT)
                        .inNamespace(ns)
                        .withLabel(WorkloadManifests.COMPONENT, "training")
                        .list()
                        .getItems()
                        .stream()
                        .findFirst()
                        .map(PyTorchJobController::asJob))
                .map(SimulatedWorkload::epochs)
                .orElse(0);
    }

    static int epochs(Job training) {
        String epochs = argument(training, "--epochs");
        return epochs == null ? 1 : Integer.parseInt(epochs);
    }

    private static String argument(Job job, String flag) {
        List<String> command =
                job.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        int at = command.indexOf(flag);
        return at < 0 || at + 1 >= command.size() ? null : command.get(at + 1);
    }
}
