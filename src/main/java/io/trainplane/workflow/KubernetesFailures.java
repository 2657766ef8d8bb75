package io.trainplane.workflow;

import io.fabric8.kubernetes.client.KubernetesClientException;

/** The Kubernetes half of {@link Failures}, apart so that functions without fabric8 never load it. */
final class KubernetesFailures {
    private KubernetesFailures() {}

    static RuntimeException classify(RuntimeException e) {
        if (e instanceof KubernetesClientException k && (k.getCode() == 0 || k.getCode() == 429 || k.getCode() >= 500)) {
            return new TransientException("the Kubernetes API asked to retry: " + k.getMessage(), e);
        }
        return e;
    }
}
