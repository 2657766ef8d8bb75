package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The validating admission webhooks of the operators a run may install, called as the API server
 * calls them: on a create or replace of a matching resource (not its status), once the operator's
 * ValidatingWebhookConfiguration exists on the cluster; with {@code failurePolicy: Fail} a denial
 * refuses the write. The twin's own rules, each from the operator's source at the pinned release.
 * Where it is more lenient: patches are let through unvalidated, and a configuration whose webhook
 * Service has no running pod still validates (the API server would refuse the write instead).
 */
final class AdmissionWebhooks {
    /** One webhook: its configuration's and its own name, what it validates, and its rules. */
    record Webhook(
            String configuration,
            String name,
            String group,
            String version,
            String plural,
            Function<JsonNode, List<String>> rules) {}

    /**
     * The Kubeflow training operator v1.9.4's PyTorchJob webhook (its manifest's
     * validator.training-operator.kubeflow.org; kubeflow/trainer v1.9.4,
     * pkg/webhooks/pytorch/pytorchjob_webhook.go).
     */
    static final Webhook PYTORCHJOB = new Webhook(
            "validator.training-operator.kubeflow.org",
            "validator.pytorchjob.training-operator.kubeflow.org",
            "kubeflow.org",
            "v1",
            "pytorchjobs",
            PyTorchJobValidation::errors);

    static final List<Webhook> KNOWN = List.of(PYTORCHJOB);

    private static final Pattern WRITE =
            Pattern.compile("^/apis/([^/]+)/([^/]+)/namespaces/[^/]+/([^/?]+)(?:/([^/?]+))?(/[^?]*)?(\\?.*)?$");

    private AdmissionWebhooks() {}

    /** The webhook a {@code method} on {@code path} goes through, if any: creates and replaces of the object itself. */
    static Optional<Webhook> matching(String method, String path) {
        if (!method.equals("POST") && !method.equals("PUT")) {
            return Optional.empty();
        }
        Matcher m = WRITE.matcher(path);
        if (!m.matches() || m.group(5) != null) {
            return Optional.empty(); // not a namespaced object, or a subresource such as /status
        }
        return KNOWN.stream()
                .filter(w -> w.group().equals(m.group(1))
                        && w.version().equals(m.group(2))
                        && w.plural().equals(m.group(3)))
                .findFirst();
    }

    /** The API server's message for a denial, as clients print it. */
    static String denial(Webhook webhook, List<String> errors) {
        return "admission webhook \"" + webhook.name() + "\" denied the request: " + String.join(", ", errors);
    }
}
