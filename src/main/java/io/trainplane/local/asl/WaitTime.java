package io.trainplane.local.asl;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.regex.Pattern;

/** How long a Wait state waits: Seconds, SecondsPath, Timestamp or TimestampPath. */
sealed interface WaitTime {
    /** When the wait ends, for a state entered at {@code now} with effective input {@code input}. */
    Instant until(Instant now, JsonNode input);

    /** RFC 3339 with an uppercase T and an uppercase Z or a numeric offset, as AWS requires. */
    Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})");

    static Instant parseTimestamp(String text) {
        if (!TIMESTAMP.matcher(text).matches()) {
            throw new IllegalArgumentException(
                    "not an RFC 3339 timestamp such as 2016-08-18T17:33:00Z: '" + text + "'");
        }
        try {
            return OffsetDateTime.parse(text).toInstant();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("not a valid timestamp: '" + text + "'");
        }
    }

    record Seconds(long seconds) implements WaitTime {
        @Override
        public Instant until(Instant now, JsonNode input) {
            return now.plusSeconds(seconds);
        }
    }

    record Timestamp(Instant timestamp) implements WaitTime {
        @Override
        public Instant until(Instant now, JsonNode input) {
            return timestamp;
        }
    }

    record SecondsPath(JsonPathExpr path) implements WaitTime {
        @Override
        public Instant until(Instant now, JsonNode input) {
            JsonNode value = path.read(input)
                    .orElseThrow(() -> StatesError.runtime("Invalid path '" + path.text()
                            + "' : No results for path (SecondsPath, input: " + Json.write(input) + ")"));
            if (!value.isIntegralNumber() || value.longValue() < 0 || value.longValue() > 99_999_999L) {
                throw StatesError.runtime(
                        "The SecondsPath parameter does not reference a valid integer value: " + Json.write(value));
            }
            return now.plusSeconds(value.longValue());
        }
    }

    record TimestampPath(JsonPathExpr path) implements WaitTime {
        @Override
        public Instant until(Instant now, JsonNode input) {
            JsonNode value = path.read(input)
                    .orElseThrow(() -> StatesError.runtime("Invalid path '" + path.text()
                            + "' : No results for path (TimestampPath, input: " + Json.write(input) + ")"));
            try {
                if (!value.isTextual()) {
                    throw new IllegalArgumentException("not a string");
                }
                return parseTimestamp(value.textValue());
            } catch (IllegalArgumentException e) {
                throw StatesError.runtime(
                        "The TimestampPath parameter does not reference a valid ISO-8601 extended offset"
                                + " date-time format string: " + Json.write(value));
            }
        }
    }
}
