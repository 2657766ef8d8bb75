package io.trainplane.local.iam;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.function.BiPredicate;

/**
 * The condition operators the simulation evaluates, as
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html
 * defines them. A negated operator ({@code StringNotEquals}) is true when its positive form
 * matches none of the policy's values. Binary and IP address operators are not simulated: a
 * policy using them is refused when it is loaded.
 */
public enum ConditionOperator {
    StringEquals(false, String::equals),
    StringNotEquals(true, String::equals),
    StringEqualsIgnoreCase(false, String::equalsIgnoreCase),
    StringNotEqualsIgnoreCase(true, String::equalsIgnoreCase),
    StringLike(false, (value, pattern) -> Wildcards.matches(pattern, value, false)),
    StringNotLike(true, (value, pattern) -> Wildcards.matches(pattern, value, false)),
    NumericEquals(false, numbers(c -> c == 0)),
    NumericNotEquals(true, numbers(c -> c == 0)),
    NumericLessThan(false, numbers(c -> c < 0)),
    NumericLessThanEquals(false, numbers(c -> c <= 0)),
    NumericGreaterThan(false, numbers(c -> c > 0)),
    NumericGreaterThanEquals(false, numbers(c -> c >= 0)),
    DateEquals(false, dates(c -> c == 0)),
    DateNotEquals(true, dates(c -> c == 0)),
    DateLessThan(false, dates(c -> c < 0)),
    DateLessThanEquals(false, dates(c -> c <= 0)),
    DateGreaterThan(false, dates(c -> c > 0)),
    DateGreaterThanEquals(false, dates(c -> c >= 0)),
    Bool(false, (value, wanted) -> value.equalsIgnoreCase(wanted)),
    // "ArnEquals, ArnLike: Case-sensitive matching of the ARN. Each of the six colon-delimited
    // components of the ARN is checked separately and each can include ... wildcards" (same page).
    ArnEquals(false, (value, pattern) -> Wildcards.arnMatches(pattern, value)),
    ArnLike(false, (value, pattern) -> Wildcards.arnMatches(pattern, value)),
    ArnNotEquals(true, (value, pattern) -> Wildcards.arnMatches(pattern, value)),
    ArnNotLike(true, (value, pattern) -> Wildcards.arnMatches(pattern, value)),
    /** Tests presence only: "true" matches an absent key, "false" a present one. */
    Null(false, (value, wanted) -> false);

    private final boolean negated;
    /** The positive test of one request value against one policy value. */
    private final BiPredicate<String, String> positive;

    ConditionOperator(boolean negated, BiPredicate<String, String> positive) {
        this.negated = negated;
        this.positive = positive;
    }

    boolean negated() {
        return negated;
    }

    /** Whether the policy's values are wildcard patterns (the *Like and Arn operators). */
    boolean wildcards() {
        return name().contains("Like") || name().startsWith("Arn");
    }

    /** One request value against the policy's values: OR of the positive test, negated for Not operators. */
    boolean test(String requestValue, java.util.List<String> policyValues) {
        boolean any = policyValues.stream().anyMatch(p -> positive.test(requestValue, p));
        return negated != any;
    }

    /** The policy value's problem for this operator, or null when it is well formed. */
    String problemWith(String policyValue) {
        String name = name();
        if (name.startsWith("Numeric") && number(policyValue) == null) {
            return "is not a number";
        }
        if (name.startsWith("Date") && instant(policyValue) == null) {
            return "is not an ISO 8601 date or epoch seconds";
        }
        if ((this == Bool || this == Null)
                && !policyValue.equalsIgnoreCase("true")
                && !policyValue.equalsIgnoreCase("false")) {
            return "is neither true nor false";
        }
        if (name.startsWith("Arn") && !policyValue.equals("*") && !policyValue.startsWith("arn:")) {
            return "is not an ARN";
        }
        return null;
    }

    private interface Comparison {
        boolean holds(int compared);
    }

    private static BiPredicate<String, String> numbers(Comparison comparison) {
        return (value, wanted) -> {
            BigDecimal have = number(value);
            return have != null && comparison.holds(have.compareTo(number(wanted)));
        };
    }

    private static BiPredicate<String, String> dates(Comparison comparison) {
        return (value, wanted) -> {
            Instant have = instant(value);
            return have != null && comparison.holds(have.compareTo(instant(wanted)));
        };
    }

    private static BigDecimal number(String text) {
        try {
            return new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** "2020-01-01T00:00:00Z", "2020-01-01T00:00:00+02:00", "2020-01-01", or epoch seconds. */
    private static Instant instant(String text) {
        try {
            if (text.matches("\\d+")) {
                return Instant.ofEpochSecond(Long.parseLong(text));
            }
            if (text.length() == 10) {
                return LocalDate.parse(text).atStartOfDay().toInstant(ZoneOffset.UTC);
            }
            return OffsetDateTime.parse(text).toInstant();
        } catch (RuntimeException e) {
            return null;
        }
    }
}
