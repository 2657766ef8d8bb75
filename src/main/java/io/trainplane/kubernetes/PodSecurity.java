package io.trainplane.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import java.util.stream.Stream;

/**
 * How a run's pods are confined. The run's namespace enforces Pod Security Admission's baseline
 * level ({@value #ENFORCE_LABEL}, https://kubernetes.io/docs/concepts/security/pod-security-admission/),
 * and every pod the run creates goes further, as the restricted level asks
 * (https://kubernetes.io/docs/concepts/security/pod-security-standards/#restricted): no privilege
 * escalation, every capability dropped, the runtime's default seccomp profile, and no service
 * account token in a pod that has no use for one. Not restricted itself: training images such as
 * PyTorch's run as root. A pod with the run's service account keeps its token, which EKS Pod
 * Identity needs. The MPIJob's containers keep the runtime's default capabilities: their sshd
 * changes user and root directory for each session (SETUID, SETGID, SYS_CHROOT).
 */
public final class PodSecurity {
    /** The namespace label Pod Security Admission enforces. */
    public static final String ENFORCE_LABEL = "pod-security.kubernetes.io/enforce";
    /** The level the run's namespace enforces. */
    public static final String LEVEL = "baseline";

    private PodSecurity() {}

    /** {@code pod}, its containers confined; their capabilities dropped unless {@code keepCapabilities}. */
    static PodSpec confined(PodSpec pod, boolean keepCapabilities) {
        if (pod.getSecurityContext() == null) {
            pod.setSecurityContext(new io.fabric8.kubernetes.api.model.PodSecurityContext());
        }
        pod.getSecurityContext()
                .setSeccompProfile(new io.fabric8.kubernetes.api.model.SeccompProfileBuilder()
                        .withType("RuntimeDefault")
                        .build());
        if (pod.getServiceAccountName() == null || pod.getServiceAccountName().isEmpty()) {
            pod.setAutomountServiceAccountToken(false);
        }
        Stream.concat(
                        pod.getInitContainers() == null ? Stream.<Container>empty() : pod.getInitContainers().stream(),
                        pod.getContainers().stream())
                .forEach(c -> {
                    var context = new SecurityContextBuilder().withAllowPrivilegeEscalation(false);
                    if (!keepCapabilities) {
                        context.withNewCapabilities().withDrop("ALL").endCapabilities();
                    }
                    c.setSecurityContext(context.build());
                });
        return pod;
    }

    static PodSpec confined(PodSpec pod) {
        return confined(pod, false);
    }
}
