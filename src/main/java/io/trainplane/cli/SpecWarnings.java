package io.trainplane.cli;

import io.trainplane.aws.RunPrices;
import io.trainplane.aws.eks.EksRequests;
import io.trainplane.runs.CostEstimate;
import io.trainplane.spec.KubernetesVersions;
import io.trainplane.spec.RunSpec;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What {@code validate} and {@code plan} warn of, without refusing. A created cluster's Kubernetes
 * version on the run's day: one in EKS extended support, or leaving standard support within
 * {@link #DAYS_AHEAD} days, costs more per cluster-hour (EKS's calendar and prices:
 * https://docs.aws.amazon.com/eks/latest/userguide/kubernetes-versions.html,
 * https://aws.amazon.com/eks/pricing/); a calendar with no version in standard support is out of
 * date. A training image from Docker Hub pulled by more nodes than Docker Hub lets one address
 * pull anonymously in an hour. A command's variable that looks like a credential. And a budget
 * the plan expects the run to reach.
 */
final class SpecWarnings {
    /** How far ahead a version's end of standard support is announced. */
    static final int DAYS_AHEAD = 60;

    /**
     * Docker Hub's pull rate limit for unauthenticated users: "10 per IPv4 address or IPv6 /64
     * subnet" an hour (https://docs.docker.com/docker-hub/usage/pulls/). A stack's nodes reach
     * Docker Hub through its VPC's NAT gateway: one address for all of them, every run's.
     */
    static final int DOCKER_HUB_PULLS_PER_HOUR = 10;

    private SpecWarnings() {}

    static List<String> of(RunSpec spec, LocalDate day, RunPrices prices) {
        List<String> warnings = new ArrayList<>(versions(spec, day, prices));
        dockerHub(spec).ifPresent(warnings::add);
        warnings.addAll(credentials(spec));
        budget(spec, CostEstimate.of(spec, prices, day).expectedTotal()).ifPresent(warnings::add);
        return warnings;
    }

    /** A budget below the plan's expected cost: the training is stopped before its last epoch. */
    static Optional<String> budget(RunSpec spec, double expectedUsd) {
        if (spec.budgetUsd() == null || spec.budgetUsd() >= expectedUsd) {
            return Optional.empty();
        }
        return Optional.of(String.format(
                java.util.Locale.ROOT,
                "budgetUsd $%.2f is less than the plan's expected cost $%.2f: the training will likely be stopped at"
                        + " its budget before its last epoch (its checkpoint kept, no evaluation), and the run end"
                        + " BUDGET_REACHED",
                spec.budgetUsd(),
                expectedUsd));
    }

    /** A variable name that usually holds a credential (HF_TOKEN, WANDB_API_KEY, DB_PASSWORD, ...). */
    static final java.util.regex.Pattern CREDENTIAL =
            java.util.regex.Pattern.compile("(?i).*(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|CREDENTIAL).*");

    /**
     * A command's variable that looks like a credential: its value travels with the spec, into the
     * run record, the Run Started event and the execution's input, where whoever may read those
     * reads it.
     */
    private static List<String> credentials(RunSpec spec) {
        List<String> warnings = new ArrayList<>();
        var commands = new java.util.LinkedHashMap<String, io.trainplane.spec.WorkloadCommand>();
        commands.put("prepare", spec.workload().prepare());
        commands.put("train", spec.workload().train());
        commands.put("evaluate", spec.workload().evaluate());
        commands.forEach((role, command) -> {
            if (command == null) {
                return;
            }
            command.env().keySet().stream()
                    .filter(name -> CREDENTIAL.matcher(name).matches())
                    .forEach(name -> warnings.add("workload.commands." + role + ".env." + name
                            + " looks like a credential: its value is stored in the run record, the Run Started"
                            + " event and the execution's input, where everyone who may read them sees it;"
                            + " give it by reference instead, {\"secretArn\": \"arn:aws:secretsmanager:...\"} or"
                            + " {\"ssmParameter\": \"/name\"} under the stack's RunSecretsPrefix: the pod reads the"
                            + " value through the run's identity and the spec holds only the reference"));
        });
        return warnings;
    }

    /** When the run's nodes would pull its Docker Hub image more often than one address may in an hour. */
    private static Optional<String> dockerHub(RunSpec spec) {
        String image = spec.training().image();
        int slash = image.indexOf('/');
        String registry = slash < 0 ? "" : image.substring(0, slash);
        boolean hub = slash < 0 || registry.equals("docker.io") || !(registry.contains(".") || registry.contains(":"));
        if (!hub || !spec.cluster().created()) {
            return Optional.empty();
        }
        // Each node pulls the image once: the workers', and the system node group's (its data job runs it).
        int nodes = spec.cluster().nodeGroup().nodes()
                + EksRequests.systemNodeGroup().nodes();
        if (nodes < DOCKER_HUB_PULLS_PER_HOUR) {
            return Optional.empty();
        }
        return Optional.of(nodes + " nodes pull " + image + " from Docker Hub anonymously through the stack's"
                + " NAT address, which Docker Hub allows " + DOCKER_HUB_PULLS_PER_HOUR + " pulls an hour for every run"
                + " together (https://docs.docker.com/docker-hub/usage/pulls/): the nodes beyond them wait in"
                + " ImagePullBackOff; copy the image to Amazon ECR (or an ECR pull-through cache) and set training.image"
                + " to it");
    }

    private static List<String> versions(RunSpec spec, LocalDate day, RunPrices prices) {
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
