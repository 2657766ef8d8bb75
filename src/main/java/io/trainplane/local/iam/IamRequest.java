package io.trainplane.local.iam;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One request as IAM evaluates it: the action's IAM name ({@code eks:DescribeAddon}), the resource
 * ARN in the format the Service Authorization Reference gives for the action ({@code *} for
 * actions without a resource type), and the request's condition keys with their values.
 *
 * <p>Every key has a list of values; only {@link #MULTI_VALUED} keys may have more than one (the
 * audit log writes those as JSON arrays and the others as strings).
 */
public record IamRequest(String action, String resource, Map<String, List<String>> context) {
    /** Condition keys whose type is an array in AWS's reference. */
    public static final Set<String> MULTI_VALUED = Set.of("aws:TagKeys", "eks:kubernetesGroups", "eks:namespaces");

    public IamRequest {
        if (action == null || !action.matches("[a-z0-9-]+:[A-Za-z0-9]+")) {
            throw new IllegalArgumentException("not an IAM action: " + action);
        }
        if (resource == null || resource.isEmpty()) {
            throw new IllegalArgumentException(
                    "no resource for " + action + " (use \"*\" for actions without a resource type)");
        }
        var keys = new TreeMap<String, List<String>>();
        context.forEach((key, values) -> {
            if (values.size() != 1 && !MULTI_VALUED.contains(key)) {
                throw new IllegalArgumentException("condition key " + key + " takes one value, not " + values);
            }
            keys.put(key, List.copyOf(values));
        });
        context = java.util.Collections.unmodifiableMap(keys);
    }

    public static IamRequest of(String action, String resource) {
        return new IamRequest(action, resource, Map.of());
    }

    /** The same request with one more condition key. */
    public IamRequest with(String key, List<String> values) {
        var more = new TreeMap<>(context);
        more.put(key, values);
        return new IamRequest(action, resource, more);
    }

    /** The same request with one more single-valued condition key. */
    public IamRequest with(String key, String value) {
        return with(key, List.of(value));
    }
}
