package io.trainplane.local.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** The expression parsers and evaluators of the twin's DynamoDB, one rule at a time. */
class DynamoExpressionsTest {
    private static final Map<String, AttributeValue> ITEM = Map.of(
            "pk", s("RUN#a"),
            "sk", s("STEP#0001"),
            "status", s("RUNNING"),
            "version", n("3"),
            "tags", AttributeValue.fromSs(List.of("x", "y")),
            "entries", AttributeValue.fromL(List.of(n("1"), s("two"))),
            "spec", AttributeValue.fromM(Map.of("nodes", n("2"))));

    private static final Placeholders P = new Placeholders(
            Map.of("#s", "status", "#v", "version", "#pk", "pk", "#sk", "sk", "#n", "nodes", "#spec", "spec"),
            values(
                    ":running",
                    s("RUNNING"),
                    ":pending",
                    s("PENDING"),
                    ":three",
                    n("3.0"),
                    ":two",
                    n("2"),
                    ":ten",
                    n("10"),
                    ":prefix",
                    s("STEP#"),
                    ":x",
                    s("x"),
                    ":twostr",
                    s("two"),
                    ":one",
                    n("1"),
                    ":list",
                    AttributeValue.fromL(List.of(s("three"))),
                    ":S",
                    s("S")));

    private static boolean holds(String expression) {
        return Condition.parse(expression, P).test(ITEM);
    }

    @Test
    void comparatorsCompareNumbersByValueAndStringsByBytes() {
        assertThat(holds("#v = :three")).isTrue();
        assertThat(holds("#v <> :three")).isFalse();
        assertThat(holds("#v > :two AND #v >= :three AND #v < :ten AND #v <= :three"))
                .isTrue();
        assertThat(holds("#s < :pending")).isFalse(); // R (0x52) > P (0x50)
        assertThat(holds("#s > :pending")).isTrue();
        assertThat(holds("#s < :three")).isFalse(); // string and number do not order
        assertThat(holds("gone <> :three")).isTrue();
        assertThat(holds("gone = :three")).isFalse();
        assertThat(holds("gone < :three")).isFalse();
    }

    @Test
    void logicalOperatorsHonourPrecedenceAndParentheses() {
        // NOT binds before AND, AND before OR.
        assertThat(holds("#s = :pending AND #v = :three OR #v = :three")).isTrue();
        assertThat(holds("#s = :pending AND (#v = :three OR #v = :three)")).isFalse();
        assertThat(holds("NOT #s = :pending AND #v = :three")).isTrue();
        assertThat(holds("NOT (#s = :running AND #v = :three)")).isFalse();
        assertThat(holds("not #s = :pending and #v = :three")).isTrue(); // keywords are case-insensitive
    }

    @Test
    void functionsAndBetweenAndIn() {
        assertThat(holds("attribute_exists(#s) AND attribute_not_exists(ended)"))
                .isTrue();
        assertThat(holds("attribute_not_exists(#pk)")).isFalse();
        assertThat(holds("begins_with(#sk, :prefix)")).isTrue();
        assertThat(holds("contains(tags, :x) AND contains(entries, :twostr)")).isTrue();
        assertThat(holds("contains(entries, :one)")).isTrue();
        assertThat(holds("size(tags) = :two AND size(entries) = :two")).isTrue();
        assertThat(holds("#v BETWEEN :two AND :ten")).isTrue();
        assertThat(holds("#v BETWEEN :ten AND :ten")).isFalse();
        assertThat(holds("#s IN (:pending, :running)")).isTrue();
        assertThat(holds("#s IN (:pending)")).isFalse();
        assertThat(holds("#spec.#n = :two AND entries[1] = :x")).isFalse();
        assertThat(holds("#spec.#n = :two AND entries[0] = :one")).isTrue();
        assertThat(holds("attribute_type(#s, :S)")).isTrue();
    }

    @Test
    void undefinedPlaceholdersAndSyntaxErrorsAreValidationErrors() {
        assertThatThrownBy(() -> Condition.parse("#nope = :x", P))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageContaining("An expression attribute name used in the document path is not defined");
        assertThatThrownBy(() -> Condition.parse("#s = :nope", P))
                .hasMessageContaining("An expression attribute value used in expression is not defined");
        assertThatThrownBy(() -> Condition.parse("#s = ", P)).hasMessageContaining("Syntax error");
        assertThatThrownBy(() -> Condition.parse("(#s = :x", P)).hasMessageContaining("Syntax error");
        assertThat(((DynamoDbException) catchValidation()).awsErrorDetails().errorCode())
                .isEqualTo("ValidationException");
    }

    private static Throwable catchValidation() {
        try {
            Condition.parse("#s ! :x", P);
            throw new AssertionError("no error");
        } catch (DynamoDbException e) {
            return e;
        }
    }

    @Test
    void updateSetsRemovesAddsAndReadsTheItemAsItWas() {
        Map<String, AttributeValue> after = Update.parse(
                        "SET #v = #v + :one, tally = if_not_exists(tally, :ten) - :one,"
                                + " entries = list_append(entries, :list), dup = #v REMOVE tags ADD added :two, #n :one",
                        P)
                .apply(ITEM);
        assertThat(after.get("version")).isEqualTo(n("4"));
        assertThat(after.get("tally")).isEqualTo(n("9"));
        assertThat(after.get("dup")).isEqualTo(n("3")); // the old version: right-hand sides read the item before
        assertThat(after.get("entries").l()).containsExactly(n("1"), s("two"), s("three"));
        assertThat(after).doesNotContainKey("tags");
        assertThat(after.get("added")).isEqualTo(n("2"));
        assertThat(after.get("nodes")).isEqualTo(n("1"));
        assertThat(ITEM.get("version")).isEqualTo(n("3"));
    }

    @Test
    void updateRefusesRepeatedClausesOverlapsAndMissingOperands() {
        assertThatThrownBy(() -> Update.parse("SET a = :one SET b = :one", P))
                .hasMessageContaining("only be used once");
        assertThatThrownBy(() -> Update.parse("SET a = :one, a = :two", P)).hasMessageContaining("overlap");
        assertThatThrownBy(() -> Update.parse("SET a = gone + :one", P).apply(ITEM))
                .hasMessageContaining("does not exist in the item");
        assertThatThrownBy(() -> Update.parse("SET #spec.#n = :one", P))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void keyConditionsTakeThePartitionAndOneSortKeyCondition() {
        Placeholders p = new Placeholders(
                Map.of("#pk", "pk", "#sk", "sk"),
                Map.of(":pk", s("RUN#a"), ":p", s("STEP#"), ":a", s("STEP#0000"), ":b", s("STEP#0002")));
        assertThat(KeyCondition.parse("#pk = :pk AND begins_with(#sk, :p)", p, "pk", "sk")
                        .matches(ITEM, "pk", "sk"))
                .isTrue();
        assertThat(KeyCondition.parse("#pk = :pk AND #sk BETWEEN :a AND :b", p, "pk", "sk")
                        .matches(ITEM, "pk", "sk"))
                .isTrue();
        assertThat(KeyCondition.parse("#pk = :pk AND #sk > :b", p, "pk", "sk").matches(ITEM, "pk", "sk"))
                .isFalse();
        assertThat(KeyCondition.parse("#pk = :pk AND #sk < :b", p, "pk", "sk").matches(ITEM, "pk", "sk"))
                .isTrue();
        assertThatThrownBy(() -> KeyCondition.parse("#sk = :a", p, "pk", "sk"))
                .hasMessageContaining("Query condition missed key schema element: pk");
        assertThatThrownBy(() -> KeyCondition.parse("#pk = :pk AND #sk <> :a", p, "pk", "sk"))
                .hasMessageContaining("Invalid operator");
    }

    @Test
    void reservedWordsAreNamedThroughPlaceholders() {
        assertThatThrownBy(() -> Condition.parse("status = :running", P))
                .hasMessageContaining("reserved keyword: status");
        assertThatThrownBy(() -> Projection.parse("pk, log", P)).hasMessageContaining("reserved keyword: log");
        assertThat(holds("#s = :running")).isTrue();
    }

    @Test
    void projectionsKeepTheNamedAttributesThatExist() {
        assertThat(Projection.parse("#s, #v, gone", P).apply(ITEM)).containsOnlyKeys("status", "version");
        assertThat(Projection.parse(null, P).apply(ITEM)).isSameAs(ITEM);
    }

    @Test
    void itemsRoundTripThroughDynamoDbJson() {
        Map<String, AttributeValue> item = new java.util.HashMap<>(ITEM);
        item.put("bin", AttributeValue.fromB(software.amazon.awssdk.core.SdkBytes.fromUtf8String("z")));
        item.put("flag", AttributeValue.fromBool(true));
        item.put("nothing", AttributeValue.fromNul(true));
        item.put("nums", AttributeValue.fromNs(List.of("1", "2.5")));
        assertThat(AttributeValues.fromJson(AttributeValues.toJson(item))).isEqualTo(item);
        assertThat(AttributeValues.keyText(n("1.50"))).isEqualTo(AttributeValues.keyText(n("1.5")));
    }

    private static Map<String, AttributeValue> values(Object... pairs) {
        Map<String, AttributeValue> values = new java.util.HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put((String) pairs[i], (AttributeValue) pairs[i + 1]);
        }
        return values;
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }
}
