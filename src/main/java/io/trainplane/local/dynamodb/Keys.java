package io.trainplane.local.dynamodb;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * The rules on keys DynamoDB applies before it reads or writes
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.CoreComponents.html#HowItWorks.CoreComponents.PrimaryKey):
 * an item carries its key attributes with their declared types, a key names exactly the key
 * attributes, and an update never changes a key attribute
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Expressions.UpdateExpressions.html);
 * and what UpdateItem's ReturnValues returns.
 */
final class Keys {
    private Keys() {}

    static void requireItemKeys(TableSchema t, Map<String, AttributeValue> item) {
        requireKeyAttribute(t, item, t.hashKey());
        if (t.rangeKey() != null) {
            requireKeyAttribute(t, item, t.rangeKey());
        }
    }

    private static void requireKeyAttribute(TableSchema t, Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        if (value == null) {
            throw Errors.validation(
                    "One or more parameter values were invalid: Missing the key " + name + " in the item");
        }
        String expected = t.attributeTypes().get(name);
        String actual = Functions.typeName(value);
        if (!actual.equals(expected)) {
            throw Errors.validation("One or more parameter values were invalid: Type mismatch for key " + name
                    + " expected: " + expected + " actual: " + actual);
        }
    }

    static void requireKey(TableSchema t, Map<String, AttributeValue> key) {
        int expected = t.rangeKey() == null ? 1 : 2;
        if (key == null
                || key.size() != expected
                || !key.containsKey(t.hashKey())
                || (t.rangeKey() != null && !key.containsKey(t.rangeKey()))) {
            throw Errors.validation("The provided key element does not match the schema");
        }
        requireItemKeys(t, key);
    }

    static void refuseKeyUpdate(TableSchema t, Set<String> changed) {
        for (String name : changed) {
            if (name.equals(t.hashKey()) || name.equals(t.rangeKey())) {
                throw Errors.validation("One or more parameter values were invalid: Cannot update attribute " + name
                        + ". This attribute is part of the key");
            }
        }
    }

    /**
     * UpdateItem's ReturnValues: NONE, ALL_OLD, ALL_NEW, UPDATED_OLD or UPDATED_NEW (null: none).
     * The "updated" attributes are those the update named whose value it changed (one it set to
     * the value it had is not among them), as moto_server reads
     * https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateItem.html#DDB-UpdateItem-request-ReturnValues.
     */
    static Map<String, AttributeValue> returned(
            ReturnValue what, Map<String, AttributeValue> old, Map<String, AttributeValue> after, Set<String> changed) {
        if (what == null || what == ReturnValue.NONE) {
            return null;
        }
        return switch (what) {
            case ALL_OLD -> old;
            case ALL_NEW -> after;
            case UPDATED_OLD -> only(old, differing(old, after, changed));
            case UPDATED_NEW -> only(after, differing(old, after, changed));
            default -> throw new UnsupportedOperationException("UpdateItem with ReturnValues " + what);
        };
    }

    private static Set<String> differing(
            Map<String, AttributeValue> old, Map<String, AttributeValue> after, Set<String> names) {
        Map<String, AttributeValue> before = old == null ? Map.of() : old;
        Set<String> out = new java.util.LinkedHashSet<>();
        names.forEach(n -> {
            if (!AttributeValues.same(before.get(n), after.get(n)) && (before.containsKey(n) || after.containsKey(n))) {
                out.add(n);
            }
        });
        return out;
    }

    private static Map<String, AttributeValue> only(Map<String, AttributeValue> item, Set<String> names) {
        if (item == null) {
            return null;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        names.forEach(n -> {
            if (item.containsKey(n)) {
                out.put(n, item.get(n));
            }
        });
        return out;
    }
}
