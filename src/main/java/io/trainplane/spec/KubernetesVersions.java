package io.trainplane.spec;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The Kubernetes versions EKS runs and their support calendar, from
 * {@code src/main/resources/eks/kubernetes-versions.json} (EKS's release calendar:
 * https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html). Spec validation,
 * {@code plan}'s prices and the simulated EKS all ask this one class, so they agree on the day a
 * version stops being usable. Dates are UTC days; a run's day is the caller's to give.
 */
public final class KubernetesVersions {
    static final String RESOURCE = "/eks/kubernetes-versions.json";

    /** Where a version stands on a day. */
    public enum Support {
        /** Between EKS's release and the end of standard support: the control plane at the standard price. */
        STANDARD,
        /** The 12 months after standard support: still created, at the extended-support price. */
        EXTENDED,
        /** Not released on EKS yet, past extended support, or never known: EKS creates no cluster with it. */
        UNSUPPORTED
    }

    /**
     * One version's calendar. Each end date is the first day of the next phase, as EKS counts it:
     * extended support is billed from the start of {@code endOfStandardSupport}, and no cluster is
     * created from the start of {@code endOfExtendedSupport}.
     */
    public record Version(
            String version, LocalDate eksRelease, LocalDate endOfStandardSupport, LocalDate endOfExtendedSupport) {
        public Version {
            Objects.requireNonNull(version, "version");
            if (!eksRelease.isBefore(endOfStandardSupport) || !endOfStandardSupport.isBefore(endOfExtendedSupport)) {
                throw new IllegalArgumentException("Kubernetes " + version + ": release, end of standard support and"
                        + " end of extended support must be in that order");
            }
        }

        public Support on(LocalDate day) {
            if (day.isBefore(eksRelease) || !day.isBefore(endOfExtendedSupport)) {
                return Support.UNSUPPORTED;
            }
            return day.isBefore(endOfStandardSupport) ? Support.STANDARD : Support.EXTENDED;
        }
    }

    private static final KubernetesVersions CALENDAR = load();

    /**
     * Test seam, set only by tests in this package (WrongTableRunTest) and reset by them: a wrong
     * calendar in place of EKS's, to show that the local twin's EKS judges versions by its own
     * calendar, not this one. Always null outside those tests.
     */
    static volatile List<Version> wrongForTests;

    private static List<Version> versions() {
        List<Version> wrong = wrongForTests;
        return wrong != null ? wrong : CALENDAR.versions;
    }

    private final String source;
    private final LocalDate asOf;
    private final List<Version> versions;

    private KubernetesVersions(String source, LocalDate asOf, List<Version> versions) {
        this.source = source;
        this.asOf = asOf;
        this.versions = versions;
    }

    /** The UTC day of {@code instant}: EKS's calendar is in UTC+0. */
    public static LocalDate day(Instant instant) {
        return LocalDate.ofInstant(instant, ZoneOffset.UTC);
    }

    /** Every version of the calendar, oldest first. */
    public static List<Version> all() {
        return versions();
    }

    /** The documentation page the calendar comes from. */
    public static String source() {
        return CALENDAR.source;
    }

    /** The day the calendar was copied from EKS's page: it knows no version released after it. */
    public static LocalDate asOf() {
        return CALENDAR.asOf;
    }

    public static Optional<Version> find(String version) {
        return versions().stream().filter(v -> v.version().equals(version)).findFirst();
    }

    /** Whether EKS has (or had) {@code version}; says nothing of its support on a given day. */
    public static boolean isKnown(String version) {
        return find(version).isPresent();
    }

    public static Support support(String version, LocalDate day) {
        return find(version).map(v -> v.on(day)).orElse(Support.UNSUPPORTED);
    }

    /** Whether EKS creates a cluster or node group with {@code version} on {@code day}: standard or extended support. */
    public static boolean canCreate(String version, LocalDate day) {
        return support(version, day) != Support.UNSUPPORTED;
    }

    /** The versions EKS creates clusters with on {@code day}, oldest first. */
    public static List<String> available(LocalDate day) {
        return versions().stream()
                .filter(v -> v.on(day) != Support.UNSUPPORTED)
                .map(Version::version)
                .toList();
    }

    /** The newest version in standard support on {@code day}. */
    public static Optional<String> newestInStandardSupport(LocalDate day) {
        return versions().stream()
                .filter(v -> v.on(day) == Support.STANDARD)
                .reduce((older, newer) -> newer)
                .map(Version::version);
    }

    /**
     * The version a created cluster gets when the spec names none: the newest in standard support on
     * {@code day}. When the calendar has none that day it is out of date (EKS releases a version about
     * every four months, so one is always in standard support): the newest still in extended support
     * stands in, and {@link #calendarOutOfDate} says so. Empty when EKS creates no cluster with any
     * version this calendar knows.
     */
    public static Optional<String> defaultVersion(LocalDate day) {
        return newestInStandardSupport(day).or(() -> available(day).stream().reduce((older, newer) -> newer));
    }

    /** Whether {@code day} is past every version's standard support: this build's calendar needs an update. */
    public static boolean calendarOutOfDate(LocalDate day) {
        return newestInStandardSupport(day).isEmpty();
    }

    private static KubernetesVersions load() {
        try (InputStream in = KubernetesVersions.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            JsonNode root = Json.strictMapper().readTree(in);
            List<Version> versions = new ArrayList<>();
            for (JsonNode v : root.path("versions")) {
                versions.add(new Version(
                        v.path("version").asText(),
                        date(v, "eksRelease"),
                        date(v, "endOfStandardSupport"),
                        date(v, "endOfExtendedSupport")));
            }
            versions.sort(Comparator.comparing(Version::eksRelease));
            return new KubernetesVersions(
                    root.path("source").asText(),
                    LocalDate.parse(root.path("asOf").asText()),
                    List.copyOf(versions));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    private static LocalDate date(JsonNode version, String field) {
        return LocalDate.parse(version.path(field).asText());
    }
}
