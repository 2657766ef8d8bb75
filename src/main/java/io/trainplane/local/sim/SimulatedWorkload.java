package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainplane.kubernetes.WorkloadManifests;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The default workload's pods, simulated: training takes {@link #EPOCH} per epoch, evaluation
 * reports an accuracy that follows a plausible learning curve of the epochs trained (not a real
 * measurement: the process runtime runs the real scripts).
 */
public final class SimulatedWorkload implements PodBehaviour {
    static final Duration EPOCH = Duration.ofSeconds(30);
    static final Duration EVALUATION = Duration.ofSeconds(40);
    static final Duration OTHER = Duration.ofSeconds(60);

    @Override
    public Outcome outcome(Job job, Pod pod, KubernetesClient client) {
        String component = job.getMetadata().getLabels().getOrDefault(WorkloadManifests.COMPONENT, "");
        return switch (component) {
            case "training" -> new Outcome(EPOCH.multipliedBy(epochs(job)), 0, null);
            case "evaluation" -> new Outcome(EVALUATION, 0, metrics(trainedEpochs(job, client)));
            default -> new Outcome(OTHER, 0, null);
        };
    }

    static double accuracyAfter(int epochs) {
        return 0.10 + 0.66 * (1 - Math.exp(-epochs / 5.0));
    }

    private static String metrics(int epochs) {
        return String.format(Locale.ROOT, "{\"accuracy\": %.4f, \"samples\": 10000, \"simulated\": 1}", accuracyAfter(epochs));
    }

    private static int trainedEpochs(Job evaluation, KubernetesClient client) {
        return client.batch().v1().jobs().inNamespace(evaluation.getMetadata().getNamespace())
                .withLabel(WorkloadManifests.COMPONENT, "training").list().getItems().stream()
                .findFirst().map(SimulatedWorkload::epochs).orElse(0);
    }

    static int epochs(Job training) {
        List<String> command = training.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand();
        int at = command.indexOf("--epochs");
        return at < 0 || at + 1 >= command.size() ? 1 : Integer.parseInt(command.get(at + 1));
    }
}
