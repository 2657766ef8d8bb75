package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What the training operator v1.9.4's webhook refuses in a PyTorchJob (kubeflow/trainer v1.9.4,
 * pkg/webhooks/pytorch/pytorchjob_webhook.go: validatePyTorchJob, validateSpec,
 * validatePyTorchReplicaSpecs), each error as field.ErrorList prints it.
 */
final class PyTorchJobValidation {
    /** Kubernetes' DNS-1035 label: what NameIsDNS1035Label holds the job's name to. */
    private static final Pattern DNS_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

    private PyTorchJobValidation() {}

    static List<String> errors(JsonNode job) {
        List<String> errors = new ArrayList<>();
        String name = job.path("metadata").path("name").asText("");
        if (name.length() > 63 || !DNS_1035.matcher(name).matches()) {
            errors.add("metadata.name: Invalid value: \"" + name + "\": should match: a DNS-1035 label must consist"
                    + " of lower case alphanumeric characters or '-', start with an alphabetic character, and end"
                    + " with an alphanumeric character");
        }
        JsonNode spec = job.path("spec");
        JsonNode replicas = spec.path("pytorchReplicaSpecs");
        if (spec.has("elasticPolicy") && !replicas.has("Worker")) {
            errors.add(
                    "spec.pytorchReplicaSpecs[Worker]: Required value: must be configured if elastic policy is used");
        }
        if (spec.path("elasticPolicy").has("nProcPerNode") && spec.has("nprocPerNode")) {
            errors.add("spec.elasticPolicy.nProcPerNode: Forbidden: must not be used with spec.nprocPerNode");
        }
        if (!replicas.isObject()) {
            errors.add("spec.pytorchReplicaSpecs: Required value: must be required");
            return errors;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = replicas.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String role = "spec.pytorchReplicaSpecs[" + entry.getKey() + "]";
            JsonNode replica = entry.getValue();
            if (!List.of("Master", "Worker").contains(entry.getKey())) {
                errors.add(role + ": Unsupported value: \"" + entry.getKey() + "\": supported values: \"Master\","
                        + " \"Worker\"");
            }
            JsonNode containers = replica.path("template").path("spec").path("containers");
            String containersPath = role + ".template.spec.containers";
            if (!containers.isArray() || containers.isEmpty()) {
                errors.add(containersPath + ": Required value: must be specified");
            }
            boolean pytorch = false;
            for (int i = 0; i < containers.size(); i++) {
                if (containers.get(i).path("image").asText("").isEmpty()) {
                    errors.add(containersPath + "[" + i + "].image: Required value: must be required");
                }
                pytorch |= "pytorch".equals(containers.get(i).path("name").asText());
            }
            if (!pytorch) {
                errors.add(containersPath + ": Required value: must have at least one container with name pytorch");
            }
            JsonNode count = replica.path("replicas");
            if (entry.getKey().equals("Master")) {
                if (!count.isInt() || count.asInt() != 1) {
                    errors.add(role + ".replicas: Forbidden: must be 1");
                }
            } else if (count.isInt() && count.asInt() < 1) {
                errors.add(role + ".replicas: Forbidden: must be at least 1");
            }
        }
        return errors;
    }
}
