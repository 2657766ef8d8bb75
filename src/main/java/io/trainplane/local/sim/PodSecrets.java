package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.Pod;
import io.trainplane.kubernetes.SecretFetch;
import io.trainplane.spec.SecretRef;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a pod's {@value SecretFetch#CONTAINER} init container does without the AWS CLI: reads each
 * secret by reference of its command as the pod's Pod Identity ({@link PodS3}'s session, tags and
 * all), from the account's {@link SimulatedSecrets}. A refused or missing secret fails it as the
 * script does: exit {@value SecretFetch#FETCH_FAILED}, the variable, the reference and the AWS
 * CLI's line; never a value.
 */
final class PodSecrets {
    private final PodS3 identity;
    private final SimulatedSecrets secrets;

    PodSecrets(PodS3 identity, SimulatedSecrets secrets) {
        this.identity = identity;
        this.secrets = secrets;
    }

    /** The values by variable name, in the pod's order. */
    Map<String, String> fetch(Pod pod) {
        Map<String, String> values = new LinkedHashMap<>();
        SecretFetch.references(pod).forEach((name, ref) -> {
            try {
                values.put(name, identity.asPod(pod, () -> switch (ref) {
                    case SecretRef.SecretsManager s -> secrets.getSecretValue(s.arn());
                    case SecretRef.SsmParameter p -> secrets.getParameter(p.parameter());
                }));
            } catch (SimulatedSecrets.SecretsException e) {
                throw new PodS3.AwsCliFailed(
                        "SECRET FETCH FAILED " + name + " (" + reference(ref) + "): " + e.cliLine(),
                        SecretFetch.FETCH_FAILED,
                        e);
            }
        });
        return values;
    }

    private static String reference(SecretRef ref) {
        return switch (ref) {
            case SecretRef.SecretsManager s -> s.arn();
            case SecretRef.SsmParameter p -> p.parameter();
        };
    }
}
