package io.trainplane.local.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The simulated EKS's own release calendar: the days it stops creating a version, the version a
 * cluster made without one gets, and rows that agree with the product's copy of the same page (a
 * change to either is to be checked against the page, not copied across).
 */
class EksVersionCalendarTest {
    @Test
    void eksCreatesAVersionFromItsReleaseUntilTheStartOfTheEndOfExtendedSupport() {
        assertThat(EksVersionCalendar.canCreate("1.31", Instant.parse("2026-11-25T23:59:59Z")))
                .isTrue();
        assertThat(EksVersionCalendar.canCreate("1.31", Instant.parse("2026-11-26T00:00:00Z")))
                .isFalse();
        assertThat(EksVersionCalendar.canCreate("1.35", Instant.parse("2026-01-26T12:00:00Z")))
                .isFalse();
        assertThat(EksVersionCalendar.canCreate("1.27", Instant.parse("2026-01-26T12:00:00Z")))
                .isFalse();
    }

    @Test
    void aClusterWithoutAVersionGetsTheNewestInStandardSupport() {
        assertThat(EksVersionCalendar.defaultVersion(Instant.parse("2026-11-28T00:00:00Z")))
                .contains("1.36");
        assertThat(EksVersionCalendar.defaultVersion(Instant.parse("2026-03-01T00:00:00Z")))
                .contains("1.35");
        assertThat(EksVersionCalendar.defaultVersion(Instant.parse("2040-01-01T00:00:00Z")))
                .isEmpty();
    }

    @Test
    void theRowsAgreeWithTheProductsCopyOfTheCalendar() throws IOException {
        assertThat(rows(EksVersionCalendar.RESOURCE)).isEqualTo(rows("/eks/kubernetes-versions.json"));
    }

    private static JsonNode rows(String resource) throws IOException {
        try (InputStream in = EksVersionCalendarTest.class.getResourceAsStream(resource)) {
            return Json.read(in).path("versions");
        }
    }
}
