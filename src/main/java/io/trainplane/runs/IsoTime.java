package io.trainplane.runs;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Instants as fixed-width ISO-8601 UTC strings with nanoseconds
 * ({@code 2025-07-01T12:00:00.000000000Z}): exact round trips, and string order is time order,
 * which the timeline's sort keys and the status index's {@code createdAt} rely on
 * ({@link Instant#toString()} drops zero fractions, and "…00Z" sorts after "…00.5Z").
 */
final class IsoTime {
    private static final DateTimeFormatter FORMAT =
            DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

    private IsoTime() {}

    static String format(Instant instant) {
        return FORMAT.format(instant);
    }

    static Instant parse(String text) {
        return Instant.parse(text);
    }
}
