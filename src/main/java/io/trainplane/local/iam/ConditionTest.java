package io.trainplane.local.iam;

import java.util.List;
import java.util.Map;

/**
 * One key of a Condition block under one operator ({@code "Null": {"aws:RequestTag/x": "false"}}).
 * A statement's tests are AND-ed; the values of one test are OR-ed.
 *
 * @param operator as the policy writes it ({@code ForAllValues:StringLikeIfExists})
 * @param set      the set operator prefix, for multivalued keys
 */
public record ConditionTest(
        String operator, SetOperator set, ConditionOperator base, boolean ifExists, String key, List<String> values) {

    public enum SetOperator {
        NONE,
        FOR_ALL_VALUES,
        FOR_ANY_VALUE
    }

    /**
     * Whether the request satisfies this test. The rules for a key the request does not carry
     * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html):
     * "If the key that you specify in a policy condition is not present in the request context,
     * the values do not match and the condition is false. If the policy condition requires that
     * the key is not matched, such as StringNotLike or ArnNotLike, and the right key is not
     * present, the condition is true. This logic applies to all condition operators except
     * ...IfExists and Null check." For the set operators
     * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-single-vs-multi-valued-context-keys.html):
     * ForAllValues "also returns true if there are no context keys in the request"; ForAnyValue
     * needs at least one request value to match. A key with an empty list of values counts as
     * absent (the same page: a Null check with "false" guards against "context keys with empty
     * values"). Policy variables in the values are replaced with the request's ({@link
     * PolicyVariables}); a value whose variable has none matches nothing.
     */
    public boolean holds(Map<String, List<String>> context) {
        List<String> values = this.values.stream()
                .flatMap(v -> PolicyVariables.resolve(v, context, base.wildcards()).stream())
                .toList();
        List<String> have = lookup(context);
        if (base == ConditionOperator.Null) {
            String wanted = have == null ? "true" : "false";
            return values.stream().anyMatch(wanted::equalsIgnoreCase);
        }
        return switch (set) {
            case FOR_ALL_VALUES -> have == null || have.stream().allMatch(v -> base.test(v, values));
            case FOR_ANY_VALUE -> have == null ? ifExists : have.stream().anyMatch(v -> base.test(v, values));
            case NONE -> {
                if (have == null) {
                    yield ifExists || base.negated();
                }
                // "Multivalued context keys require a condition set operator" (same page): a
                // single-valued operator never matches one, as iam-simulate also decides.
                if (multivalued()) {
                    yield false;
                }
                yield base.test(have.get(0), values);
            }
        };
    }

    /** "Context key names are not case-sensitive" — https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition.html */
    private List<String> lookup(Map<String, List<String>> context) {
        for (var entry : context.entrySet()) {
            if (entry.getKey().equalsIgnoreCase(key)) {
                return entry.getValue().isEmpty() ? null : entry.getValue();
            }
        }
        return null;
    }

    private boolean multivalued() {
        return IamRequest.MULTI_VALUED.stream().anyMatch(key::equalsIgnoreCase);
    }

    @Override
    public String toString() {
        return operator + " " + key + " " + (values.size() == 1 ? values.get(0) : values);
    }
}
