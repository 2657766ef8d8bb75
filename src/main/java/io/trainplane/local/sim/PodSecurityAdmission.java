package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Pod Security Admission, as the API server applies it to a pod created in a namespace labelled
 * {@code pod-security.kubernetes.io/enforce} (https://kubernetes.io/docs/concepts/security/pod-security-admission/):
 * the baseline level's checks (https://kubernetes.io/docs/concepts/security/pod-security-standards/#baseline),
 * each violation worded as the API server words it; a refused pod is a 403 "violates PodSecurity".
 * The twin checks baseline for the restricted level too (stricter checks not simulated), and
 * neither Windows HostProcess, AppArmor, SELinux nor sysctls.
 */
final class PodSecurityAdmission {
    /** The namespace label that sets the enforced level (https://kubernetes.io/docs/concepts/security/pod-security-admission/). */
    static final String ENFORCE_LABEL = "pod-security.kubernetes.io/enforce";

    /** The capabilities baseline lets a container add. */
    static final Set<String> BASELINE_CAPABILITIES = Set.of(
            "AUDIT_WRITE",
            "CHOWN",
            "DAC_OVERRIDE",
            "FOWNER",
            "FSETID",
            "KILL",
            "MKNOD",
            "NET_BIND_SERVICE",
            "SETFCAP",
            "SETGID",
            "SETPCAP",
            "SETUID",
            "SYS_CHROOT");

    private static final Pattern POD_CREATE = Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/?(\\?.*)?$");

    private PodSecurityAdmission() {}

    /** The namespace a pod is created in by {@code method} on {@code path}, when it is a pod create. */
    static Optional<String> podCreate(String method, String path) {
        Matcher m = POD_CREATE.matcher(path);
        return method.equals("POST") && m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }

    /** The level a namespace enforces ({@code namespace} as the API server stores it); empty: privileged, nothing checked. */
    static Optional<String> level(JsonNode namespace) {
        String level =
                namespace.path("metadata").path("labels").path(ENFORCE_LABEL).asText("");
        return level.equals("baseline") || level.equals("restricted") ? Optional.of(level) : Optional.empty();
    }

    /** What in {@code pod} baseline forbids, as the API server lists it; empty when it passes. */
    static List<String> violations(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        List<String> found = new ArrayList<>();
        List<String> hostNamespaces = Stream.of("hostNetwork", "hostPID", "hostIPC")
                .filter(f -> spec.path(f).asBoolean(false))
                .map(f -> f + "=true")
                .toList();
        if (!hostNamespaces.isEmpty()) {
            found.add("host namespaces (" + String.join(", ", hostNamespaces) + ")");
        }
        List<JsonNode> containers = new ArrayList<>();
        Stream.of("initContainers", "containers", "ephemeralContainers")
                .forEach(list -> spec.path(list).forEach(containers::add));
        for (JsonNode c : containers) {
            String name = c.path("name").asText();
            JsonNode context = c.path("securityContext");
            if (context.path("privileged").asBoolean(false)) {
                found.add("privileged (container \"" + name + "\" must not set securityContext.privileged=true)");
            }
            for (JsonNode added : context.path("capabilities").path("add")) {
                if (!BASELINE_CAPABILITIES.contains(added.asText())) {
                    found.add("non-default capabilities (container \"" + name + "\" must not include \""
                            + added.asText() + "\" in securityContext.capabilities.add)");
                }
            }
            for (JsonNode port : c.path("ports")) {
                if (port.path("hostPort").asInt(0) != 0) {
                    found.add("hostPort (container \"" + name + "\" uses hostPort "
                            + port.path("hostPort").asInt() + ")");
                }
            }
            if (!context.path("procMount").asText("Default").equals("Default")) {
                found.add("procMount (container \"" + name + "\" must not set securityContext.procMount=\""
                        + context.path("procMount").asText() + "\")");
            }
            if ("Unconfined".equals(context.at("/seccompProfile/type").asText(null))) {
                found.add("seccompProfile (container \"" + name
                        + "\" must not set securityContext.seccompProfile.type to \"Unconfined\")");
            }
        }
        for (JsonNode volume : spec.path("volumes")) {
            if (volume.has("hostPath")) {
                found.add("hostPath volumes (volume \"" + volume.path("name").asText() + "\")");
            }
        }
        if ("Unconfined".equals(spec.at("/securityContext/seccompProfile/type").asText(null))) {
            found.add("seccompProfile (pod must not set securityContext.seccompProfile.type to \"Unconfined\")");
        }
        return found;
    }

    /** The API server's refusal (staging/src/k8s.io/pod-security-admission/admission/admission.go). */
    static String denial(String pod, String level, List<String> violations) {
        return "pods \"" + pod + "\" is forbidden: violates PodSecurity \"" + level + ":latest\": "
                + String.join(", ", violations);
    }
}
