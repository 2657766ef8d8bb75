package io.trainplane.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** cluster.kubernetesVersion held to EKS's calendar on the run's day. */
class KubernetesVersionRuleTest {
    static final String POINTER = "/cluster/kubernetesVersion";

    static String create(String version) {
        return "{\"cluster\": {\"mode\": \"create\""
                + (version == null ? "" : ", \"kubernetesVersion\": \"" + version + "\"")
                + ", \"nodeGroup\": {\"instanceType\": \"c5.xlarge\", \"nodes\": 1}}, \"training\": {\"workers\": 1}}";
    }

    @ParameterizedTest(name = "{0} on {1}")
    @CsvSource({
        "1.99, 2026-11-23, is not a Kubernetes version EKS runs",
        "1.20, 2026-11-23, is not a Kubernetes version EKS runs",
        "1.31, 2026-11-27, reached the end of EKS extended support on 2026-11-26",
        "1.31, 2026-11-26, reached the end of EKS extended support on 2026-11-26",
        "1.36, 2026-05-01, is not released on EKS before 2026-06-02"
    })
    void aVersionEksDoesNotRunThatDayIsRefusedNamingWhatItRuns(String version, LocalDate day, String why) {
        List<SpecProblem> problems = RunSpecs.problems(create(version), day);

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo(POINTER);
            assertThat(p.message())
                    .startsWith("\"" + version + "\" " + why)
                    .contains("on " + day + " EKS supports " + String.join(", ", KubernetesVersions.available(day)));
            assertThat(p.hint())
                    .startsWith("set cluster.kubernetesVersion to \""
                            + KubernetesVersions.newestInStandardSupport(day).orElseThrow()
                            + "\", the newest version in standard support");
        });
        assertThatThrownBy(() -> RunSpecs.parse(create(version), day))
                .isInstanceOf(InvalidSpecException.class)
                .hasMessageContaining(POINTER);
    }

    @Test
    void theMessageListsTheVersionsOfTheDay() {
        SpecProblem problem =
                RunSpecs.problems(create("1.31"), LocalDate.parse("2026-11-27")).getFirst();

        assertThat(problem.message()).endsWith("(on 2026-11-27 EKS supports 1.32, 1.33, 1.34, 1.35, 1.36)");
        assertThat(problem.hint())
                .isEqualTo(
                        "set cluster.kubernetesVersion to \"1.36\", the newest version in standard support,"
                                + " or another one of 1.32, 1.33, 1.34, 1.35, 1.36 (one in extended support costs more per cluster-hour)");
    }

    @Test
    void aVersionInExtendedSupportIsAccepted() {
        RunSpec spec = RunSpecs.parse(create("1.31"), LocalDate.parse("2026-11-25"));

        assertThat(spec.cluster().kubernetesVersion()).isEqualTo("1.31");
    }

    @ParameterizedTest(name = "on {0}: {1}")
    @CsvSource({"2026-03-01, 1.35", "2026-11-27, 1.36"})
    void theDefaultIsTheNewestVersionInStandardSupportOnTheRunsDay(LocalDate day, String expected) {
        RunSpec spec = RunSpecs.parse(create(null), day);

        assertThat(spec.cluster().kubernetesVersion()).isEqualTo(expected);
        assertThat(KubernetesVersions.support(expected, day)).isEqualTo(KubernetesVersions.Support.STANDARD);
    }

    @Test
    void pastEveryVersionsStandardSupportTheDefaultIsTheNewestStillInExtendedSupport() {
        KubernetesVersions.Version newest = KubernetesVersions.all().getLast();
        LocalDate day = newest.endOfStandardSupport().plusDays(1);

        assertThat(RunSpecs.parse(create(null), day).cluster().kubernetesVersion())
                .isEqualTo(newest.version());
        assertThat(KubernetesVersions.calendarOutOfDate(day)).isTrue();
        assertThat(KubernetesVersions.calendarOutOfDate(
                        newest.endOfStandardSupport().minusDays(1)))
                .isFalse();
    }

    @Test
    void pastEveryVersionsSupportThereIsNoDefaultAndTheCalendarIsToBeUpdated() {
        LocalDate day = KubernetesVersions.all().getLast().endOfExtendedSupport();

        assertThat(RunSpecs.problems(create(null), day)).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo(POINTER);
            assertThat(p.message()).startsWith("has no default: on " + day + " EKS supports none of the versions");
            assertThat(p.hint()).contains(KubernetesVersions.RESOURCE, "out of date");
        });
    }

    @Test
    void withoutADayTheDefaultIsThatOfTheDayTheCalendarWasCopied() {
        assertThat(RunSpecs.parse(create(null)).cluster().kubernetesVersion())
                .isEqualTo(KubernetesVersions.defaultVersion(KubernetesVersions.asOf())
                        .orElseThrow());
    }

    @Test
    void withoutADayOnlyVersionsEksNeverHadAreRefused() {
        assertThat(RunSpecs.problems(create("1.31"))).isEmpty();
        assertThat(RunSpecs.problems(create("1.99"))).singleElement().satisfies(p -> {
            assertThat(p.pointer()).isEqualTo(POINTER);
            assertThat(p.message())
                    .isEqualTo("\"1.99\" is not a Kubernetes version EKS runs (its calendar has 1.28 to "
                            + KubernetesVersions.all().getLast().version() + ")");
            assertThat(p.hint()).contains(KubernetesVersions.source());
        });
    }

    @Test
    void anExistingClusterHasNoVersionToCheck() {
        assertThat(RunSpecs.problems(RunSpecsTest.MINIMAL, LocalDate.parse("2030-01-01")))
                .isEmpty();
    }
}
