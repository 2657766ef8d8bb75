package io.trainplane.local.sim;

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
import java.util.Optional;

/**
 * The simulated EKS's own Kubernetes release calendar
 * (https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html#kubernetes-release-calendar),
 * kept in {@code src/main/resources/io/trainplane/local/sim/eks-kubernetes-versions.json} with the
 * day it was copied: which versions EKS creates clusters and node groups with on a day (from its
 * release to the end of extended support, "On the end of extended support date, you can no longer
 * create new Amazon EKS clusters with the unsupported version"), and which one a cluster made
 * without a version gets. Days are UTC+0, as the calendar gives them.
 */
public final class EksVersionCalendar {
    static final String RESOURCE = "/io/trainplane/local/sim/eks-kubernetes-versions.json";

    /** One row: EKS release, end of standard support, end of extended support (each the first day of the next phase). */
    public record Row(String version, LocalDate release, LocalDate endOfStandard, LocalDate endOfExtended) {
        boolean creatable(LocalDate day) {
            return !day.isBefore(release) && day.isBefore(endOfExtended);
        }

        boolean standard(LocalDate day) {
            return !day.isBefore(release) && day.isBefore(endOfStandard);
        }
    }

    private static final List<Row> ROWS = load();

    private EksVersionCalendar() {}

    /** Every row, oldest release first. */
    public static List<Row> rows() {
        return ROWS;
    }

    /** Whether EKS creates a cluster or node group with {@code version} at {@code at}. */
    public static boolean canCreate(String version, Instant at) {
        LocalDate day = day(at);
        return ROWS.stream().anyMatch(r -> r.version().equals(version) && r.creatable(day));
    }

    /**
     * The version of a cluster created without one at {@code at}: EKS's default (DescribeClusterVersions'
     * {@code defaultVersion}), taken as the newest in standard support that day, else the newest
     * still creatable; empty when the calendar has none (it is out of date).
     */
    public static Optional<String> defaultVersion(Instant at) {
        LocalDate day = day(at);
        return newest(r -> r.standard(day)).or(() -> newest(r -> r.creatable(day)));
    }

    private static Optional<String> newest(java.util.function.Predicate<Row> which) {
        return ROWS.stream().filter(which).reduce((older, newer) -> newer).map(Row::version);
    }

    static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    private static List<Row> load() {
        try (InputStream in = EksVersionCalendar.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            List<Row> rows = new ArrayList<>();
            for (JsonNode v : Json.read(in).path("versions")) {
                rows.add(new Row(
                        v.path("version").asText(),
                        LocalDate.parse(v.path("eksRelease").asText()),
                        LocalDate.parse(v.path("endOfStandardSupport").asText()),
                        LocalDate.parse(v.path("endOfExtendedSupport").asText())));
            }
            rows.sort(Comparator.comparing(Row::release));
            return List.copyOf(rows);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }
}
