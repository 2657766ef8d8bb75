package io.trainplane.workflow;

/**
 * A step that works in a cluster's Kubernetes API (the functions of the Kubernetes artifact). Its
 * SnapStart priming also warms the way there ({@link io.trainplane.clients.Clients#primeClusters}):
 * the EKS call, the token, the Kubernetes client and the mapping of the run's objects, the costly
 * part of its first request.
 */
public interface KubernetesStep extends Step {
}
