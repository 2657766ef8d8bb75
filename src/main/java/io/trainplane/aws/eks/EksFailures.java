package io.trainplane.aws.eks;

import io.trainplane.aws.RunTags;
import io.trainplane.core.FailureReason;
import io.trainplane.core.TerminalException;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.InvalidParameterException;
import software.amazon.awssdk.services.eks.model.ResourceLimitExceededException;
import software.amazon.awssdk.services.eks.model.UnsupportedAvailabilityZoneException;

/**
 * EKS's refusals that no retry fixes, turned into {@link TerminalException}s that say what to
 * do; and EKS's health issues, turned into a reason a person can act on. Throttling, 5xx and
 * network errors are left alone: {@code io.trainplane.workflow.Failures} makes them transient.
 */
final class EksFailures {
    /** One health issue of a cluster, node group or add-on (EKS has a type for each). */
    record HealthIssue(String code, String message, List<String> resourceIds) {}

    /** What to do about the issue codes a training run meets most. */
    private static final Map<String, String> HINTS = Map.of(
            "InsufficientFreeAddresses", "use subnets with more free IP addresses",
            "AsgInstanceLaunchFailures",
                    "the instances could not start: check the instance type's availability in "
                            + "the subnets' zones, the account's EC2 quotas and, for a capacity block, its start time",
            "InstanceLimitExceeded", "ask for a higher EC2 vCPU quota for this instance family",
            "NodeCreationFailure",
                    "the nodes did not join the cluster: check the node role's policies and that "
                            + "the subnets can reach the EKS endpoint",
            "Ec2SubnetInvalidConfiguration", "give the subnets a route to the internet (public IPs or a NAT gateway)",
            "Ec2SubnetNotFound", "the stack's subnets no longer exist: update its subnet parameters",
            "Ec2SecurityGroupNotFound", "the stack's security groups no longer exist: update its parameters",
            "IamRoleNotFound", "the stack's EKS role no longer exists: redeploy the stack",
            "ConfigurationConflict", "another tool configured this add-on: remove its settings or the add-on");

    private EksFailures() {}

    /**
     * {@code e} as a TerminalException when it is one of EKS's final refusals of {@code operation}
     * on {@code resource} (e.g. "EKS cluster tp-x-eks"); otherwise {@code e} itself, to propagate.
     */
    static RuntimeException refusal(AwsServiceException e, String operation, String resource, String region) {
        String detail = detail(e);
        if (e instanceof ResourceLimitExceededException) {
            String quota = operation.contains("Nodegroup")
                    ? "managed node group quota (per cluster, or nodes per group)"
                    : operation.contains("Cluster") ? "cluster quota" : "quota";
            return new TerminalException(
                    FailureReason.EksQuotaReached,
                    "EKS " + quota + " reached in " + region + " for " + resource + ": delete unused "
                            + (operation.contains("Nodegroup") ? "node groups" : "clusters")
                            + " or ask for a higher quota in Service Quotas (" + detail + ")",
                    e);
        }
        if (e instanceof UnsupportedAvailabilityZoneException zone) {
            String zones = zone.hasValidZones() ? String.join(", ", zone.validZones()) : "another zone";
            return new TerminalException(
                    FailureReason.UnsupportedAvailabilityZone,
                    "EKS cannot place " + resource + " in the zone of one of the given subnets in " + region
                            + ": use subnets in " + zones + " (" + detail + ")",
                    e);
        }
        if (e instanceof InvalidParameterException) {
            return new TerminalException(
                    FailureReason.EksInvalidParameter,
                    "EKS refused " + operation + " for " + resource + ": " + detail
                            + "; check the run spec (Kubernetes version, instance type) and the stack's subnets, "
                            + "security groups and roles",
                    e);
        }
        return e;
    }

    /** EKS's own message, without the SDK's "(Service: …, Request ID: …)" suffix. */
    static String detail(AwsServiceException e) {
        if (e.awsErrorDetails() != null && e.awsErrorDetails().errorMessage() != null) {
            return e.awsErrorDetails().errorMessage();
        }
        return e.getMessage();
    }

    /** "code: message (resources) — hint; …", or {@code none} when EKS reports no issue. */
    static String describe(List<HealthIssue> issues, String none) {
        if (issues.isEmpty()) {
            return none;
        }
        return issues.stream().map(EksFailures::describe).collect(Collectors.joining("; "));
    }

    private static String describe(HealthIssue issue) {
        StringBuilder text = new StringBuilder(issue.code() == null ? "Unknown" : issue.code());
        if (issue.message() != null && !issue.message().isBlank()) {
            text.append(": ").append(issue.message());
        }
        if (!issue.resourceIds().isEmpty()) {
            text.append(" (").append(String.join(", ", issue.resourceIds())).append(")");
        }
        String hint = hint(issue);
        if (hint != null) {
            text.append(" - ").append(hint);
        }
        return text.toString();
    }

    /**
     * What to do: by the issue's code, and for a launch refused by a capacity reservation
     * (EC2's ReservationCapacityExceeded, a reservation id not found, a Capacity Block's market or
     * placement) what the reservation requires of the node group.
     */
    private static String hint(HealthIssue issue) {
        String message = issue.message() == null ? "" : issue.message();
        if ("AsgInstanceLaunchFailures".equals(issue.code())
                && (message.contains("ReservationCapacityExceeded")
                        || message.contains("CapacityReservation")
                        || message.contains("Capacity Block"))) {
            return "the instances do not fit their capacity reservation: every subnet of the node group must be in the "
                    + "reservation's Availability Zone, its instance type the reservation's, the reservation active "
                    + "(a Capacity Block between its start and end) with room for every node, and a Capacity Block "
                    + "launched with market type capacity-block and no placement group";
        }
        return HINTS.get(issue.code());
    }

    /** The client's region for messages; "this region" for clients that do not say. */
    static String region(EksClient eks) {
        try {
            return eks.serviceClientConfiguration().region().id();
        } catch (RuntimeException e) {
            return "this region";
        }
    }

    /** Whose a resource is, by its tags, for the message when its name is taken. */
    static String owner(Map<String, String> tags) {
        String stack = tags == null ? null : tags.get(RunTags.STACK_TAG);
        String run = tags == null ? null : tags.get(RunTags.RUN_ID_TAG);
        if (stack == null && run == null) {
            return "it has neither a " + RunTags.STACK_TAG + " nor a " + RunTags.RUN_ID_TAG + " tag";
        }
        return "its " + RunTags.STACK_TAG + " tag is " + (stack == null ? "missing" : stack) + " and its "
                + RunTags.RUN_ID_TAG + " tag is " + (run == null ? "missing" : run);
    }
}
