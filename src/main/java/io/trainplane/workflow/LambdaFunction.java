package io.trainplane.workflow;

import io.trainplane.clients.Clients;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One Lambda function of the stack, declared in {@link Pipeline}: template.yaml deploys it as
 * {@code <name>Function} (written from this declaration by {@link TemplateFunctions}) with the entry
 * point {@code io.trainplane.functions.<name>}, and the state machines invoke it through the
 * placeholder {@code ${<name>FunctionArn}}.
 *
 * @param step       builds the step it runs from the function's clients
 * @param deployment its description, execution role and what else template.yaml gives it
 * @param artifact   the jar it ships
 * @param priming    what its SnapStart hooks request before the snapshot, beyond the run store's requests
 */
public record LambdaFunction(
        String name,
        Function<Clients, Step> step,
        FunctionDeployment deployment,
        LambdaArtifact artifact,
        Set<Priming> priming) {

    /** The execution roles of template.yaml, by logical id. */
    public enum Role {
        /** The run record and the events only. */
        RUN_RECORD("RunRecordRole"),
        /** The run record, and a checkpoint to resume from copied into the run's own prefix. */
        START_RUN("StartRunRole"),
        /** Creates, uses and deletes a run's cluster and volume. */
        CLUSTER_WORK("ClusterWorkRole"),
        SAFETY_NET("SafetyNetRole"),
        JANITOR("JanitorRole"),
        START_SCHEDULED_RUN("StartScheduledRunRole");

        private final String logicalId;

        Role(String logicalId) {
            this.logicalId = logicalId;
        }

        public String logicalId() {
            return logicalId;
        }
    }

    public LambdaFunction {
        Objects.requireNonNull(name);
        Objects.requireNonNull(step);
        Objects.requireNonNull(deployment);
        Objects.requireNonNull(artifact);
        EnumSet<Priming> primes = EnumSet.noneOf(Priming.class);
        primes.addAll(priming);
        if (primes.contains(Priming.KUBERNETES_ACCESS) != (artifact == LambdaArtifact.KUBERNETES)) {
            // Priming the way to a cluster loads the Kubernetes client, which only that jar holds.
            throw new IllegalArgumentException(
                    name + ": Kubernetes access is primed exactly by the functions of the " + "Kubernetes artifact");
        }
        priming = Collections.unmodifiableSet(primes);
    }

    /** The execution role template.yaml gives it. */
    public Role role() {
        return deployment.role();
    }

    /** The function's logical id in template.yaml. */
    public String logicalId() {
        return name + "Function";
    }

    /** The class template.yaml names as its Handler (one line in functions/, built from this declaration). */
    public String handlerClass() {
        return "io.trainplane.functions." + name;
    }

    /** The function as Lambda runs it, on these clients (local mode and tests hand in their own). */
    public StepHandler handler(Clients clients) {
        return new StepHandler(this, clients);
    }
}
