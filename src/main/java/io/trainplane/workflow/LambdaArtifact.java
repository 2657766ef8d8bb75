package io.trainplane.workflow;

/**
 * The jars SAM deploys, built by the pom's shade executions into {@code target/}; every function
 * ships exactly one of them ({@link LambdaFunction#artifact()}).
 */
public enum LambdaArtifact {
    /** AWS APIs only: no Kubernetes client (fabric8, snakeyaml, zjsonpatch), nearly half the size. */
    AWS("trainplane-lambda-aws.jar"),
    /** Also fabric8 over the JDK HTTP client, for the functions that talk to a cluster's Kubernetes API. */
    KUBERNETES("trainplane-lambda-kubernetes.jar");

    private final String jarName;

    LambdaArtifact(String jarName) {
        this.jarName = jarName;
    }

    /** The file name under {@code target/}. */
    public String jarName() {
        return jarName;
    }
}
