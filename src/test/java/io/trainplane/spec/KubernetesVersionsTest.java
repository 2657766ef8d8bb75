package io.trainplane.spec;

import static io.trainplane.spec.KubernetesVersions.Support.EXTENDED;
import static io.trainplane.spec.KubernetesVersions.Support.STANDARD;
import static io.trainplane.spec.KubernetesVersions.Support.UNSUPPORTED;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The EKS calendar shipped in src/main/resources/eks/kubernetes-versions.json, and the questions asked of it. */
class KubernetesVersionsTest {
    static LocalDate day(String iso) {
        return LocalDate.parse(iso);
    }

    @Test
    void everyMinorVersionFrom128IsThereInOrderWithEksSupportWindows() {
        List<KubernetesVersions.Version> all = KubernetesVersions.all();
        assertThat(all)
                .extracting(KubernetesVersions.Version::version)
                .startsWith("1.28", "1.29", "1.30", "1.31", "1.32", "1.33", "1.34", "1.35");
        for (int i = 0; i < all.size(); i++) {
            KubernetesVersions.Version v = all.get(i);
            assertThat(v.version()).as("consecutive minor versions").isEqualTo("1." + (28 + i));
            assertThat(v.eksRelease()).as(v.version()).isBefore(v.endOfStandardSupport());
            assertThat(v.endOfStandardSupport()).as(v.version()).isBefore(v.endOfExtendedSupport());
            // EKS: 14 months of standard support from its release, then 12 months of extended support.
            assertThat(v.endOfStandardSupport())
                    .as(v.version())
                    .isEqualTo(v.eksRelease().plusMonths(14));
            assertThat(v.endOfExtendedSupport())
                    .as(v.version())
                    .isEqualTo(v.endOfStandardSupport().plusMonths(12));
            if (i > 0) {
                assertThat(v.eksRelease())
                        .as(v.version() + " after the one before")
                        .isAfter(all.get(i - 1).eksRelease());
            }
        }
    }

    @Test
    void theDatesTheDesignRestsOn() {
        assertThat(KubernetesVersions.find("1.31").orElseThrow().endOfExtendedSupport())
                .isEqualTo(day("2026-11-26"));
        assertThat(KubernetesVersions.find("1.34").orElseThrow().endOfStandardSupport())
                .isEqualTo(day("2026-12-02"));
        assertThat(KubernetesVersions.find("1.35").orElseThrow().endOfStandardSupport())
                .isEqualTo(day("2027-03-27"));
    }

    @Test
    void anEndDateIsTheFirstDayOfTheNextPhase() {
        assertThat(KubernetesVersions.support("1.31", day("2024-09-25")))
                .as("before EKS released it")
                .isEqualTo(UNSUPPORTED);
        assertThat(KubernetesVersions.support("1.31", day("2024-09-26"))).isEqualTo(STANDARD);
        assertThat(KubernetesVersions.support("1.31", day("2025-11-25"))).isEqualTo(STANDARD);
        assertThat(KubernetesVersions.support("1.31", day("2025-11-26"))).isEqualTo(EXTENDED);
        assertThat(KubernetesVersions.support("1.31", day("2026-11-25"))).isEqualTo(EXTENDED);
        assertThat(KubernetesVersions.support("1.31", day("2026-11-26"))).isEqualTo(UNSUPPORTED);
        assertThat(KubernetesVersions.canCreate("1.31", day("2026-11-25"))).isTrue();
        assertThat(KubernetesVersions.canCreate("1.31", day("2026-11-27"))).isFalse();
    }

    @Test
    void versionsOutsideTheCalendarAreUnknownAndNeverSupported() {
        for (String version : List.of("1.99", "1.20", "1.27", "abc")) {
            assertThat(KubernetesVersions.isKnown(version)).as(version).isFalse();
            assertThat(KubernetesVersions.support(version, day("2026-11-23")))
                    .as(version)
                    .isEqualTo(UNSUPPORTED);
        }
    }

    @Test
    void whatEksOffersOnADay() {
        assertThat(KubernetesVersions.available(day("2026-11-25")))
                .containsExactly("1.31", "1.32", "1.33", "1.34", "1.35", "1.36");
        assertThat(KubernetesVersions.available(day("2026-11-27")))
                .containsExactly("1.32", "1.33", "1.34", "1.35", "1.36");
        assertThat(KubernetesVersions.newestInStandardSupport(day("2026-03-01")))
                .contains("1.35");
        assertThat(KubernetesVersions.newestInStandardSupport(day("2026-11-23")))
                .contains("1.36");
        assertThat(KubernetesVersions.newestInStandardSupport(day("2023-01-01")))
                .as("before the calendar")
                .isEmpty();
    }

    @Test
    void theDataFileNamesItsSourceAndHowToReadIt() throws IOException {
        JsonNode file;
        try (InputStream in = KubernetesVersions.class.getResourceAsStream(KubernetesVersions.RESOURCE)) {
            file = Json.strictMapper().readTree(in);
        }
        assertThat(file.path("source").asText())
                .startsWith("https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html");
        assertThat(KubernetesVersions.source()).isEqualTo(file.path("source").asText());
        assertThat(file.path("note").toString()).contains("UTC", "month", "first day of the next phase");
        assertThat(file.path("versions")).hasSize(KubernetesVersions.all().size());
    }
}
