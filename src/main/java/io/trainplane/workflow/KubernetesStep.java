package io.trainplane.workflow;

/**
 * A step that works in a cluster's Kubernetes API. Its function is declared with
 * {@code Pipeline.kubernetes(...)}: it ships the Kubernetes artifact and primes
 * {@link Priming#KUBERNETES_ACCESS} (StackConsistencyTest holds the declaration to this marker).
 */
public interface KubernetesStep extends Step {}
