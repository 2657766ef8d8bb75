package io.trainplane.cli;

import io.trainplane.aws.RunPrices;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpec;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code validate} and {@code plan} warn of, without refusing, about a created cluster's
 * Kubernetes version on the run's day: one in EKS extended support, or leaving standard support
 * within {@link #DAYS_AHEAD} days, costs more per cluster-hour (EKS's calendar and prices:
 * https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html,
 * https://aws.amazon.com/eks/pricing/); a calendar with no version in standard support is out of date.
 */
final class VersionWarnings {
    /** How far ahead a version's end of standard support is announced. */
    static final int DAYS_AHEAD = 60;

    private VersionWarnings() {}

    static List<String> of(RunSpec spec, LocalDate day, RunPrices prices) {
        String version = spec.cluster().kubernetesVersion();
        if (!spec.cluster().created() || version == null) {
            return List.of();
        }
        var calendar = KubernetesVersions.find(version);
        if (calendar.isEmpty()) {
            return List.of();
        }
        List<String> warnings = new ArrayList<>();
        LocalDate endOfStandard = calendar.get().endOfStandardSupport();
        LocalDate endOfExtended = calendar.get().endOfExtendedSupport();
        String price = String.format(
                "its control plane costs $%.2f an hour instead of $%.2f (extended support, until %s, when EKS stops"
                        + " creating clusters with it)",
                prices.eksExtendedSupportControlPlanePerHour(), prices.eksControlPlanePerHour(), endOfExtended);
        String instead = KubernetesVersions.newestInStandardSupport(day)
                .filter(newest -> !newest.equals(version))
                .map(newest -> "; \"" + newest + "\" is in standard support until "
                        + KubernetesVersions.find(newest).orElseThrow().endOfStandardSupport())
                .orElse("");
        long daysLeft = ChronoUnit.DAYS.between(day, endOfStandard);
        switch (KubernetesVersions.support(version, day)) {
            case EXTENDED ->
                warnings.add("cluster.kubernetesVersion \"" + version + "\" left EKS standard support on "
                        + endOfStandard + ": " + price + instead);
            case STANDARD -> {
                if (daysLeft <= DAYS_AHEAD) {
                    warnings.add("cluster.kubernetesVersion \"" + version + "\" leaves EKS standard support on "
                            + endOfStandard + " (in " + daysLeft + (daysLeft == 1 ? " day" : " days") + "): from then "
                            + price + instead);
                }
            }
            case UNSUPPORTED -> {}
        }
        if (KubernetesVersions.calendarOutOfDate(day)) {
            warnings.add("this build's calendar of EKS versions (" + KubernetesVersions.asOf()
                    + ") has no version in standard support on " + day + ": update Trainplane, or its "
                    + "src/main/resources/eks/kubernetes-versions.json, for the versions EKS has released since");
        }
        return warnings;
    }
}
