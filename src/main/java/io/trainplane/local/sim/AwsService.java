package io.trainplane.local.sim;

import java.util.Arrays;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.services.cloudcontrol.CloudControlClient;
import software.amazon.awssdk.services.cloudcontrol.model.CloudControlException;
import software.amazon.awssdk.services.cloudwatchevents.CloudWatchEventsClient;
import software.amazon.awssdk.services.cloudwatchevents.model.CloudWatchEventsException;
import software.amazon.awssdk.services.efs.EfsClient;
import software.amazon.awssdk.services.efs.model.EfsException;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.eks.model.EksException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.SfnException;

/**
 * The services the simulated account offers: the name calls are logged and faults are injected
 * under ({@code eks:CreateCluster}), the SDK's service id (as error messages print it), the client
 * interface (whose methods are the operations) and the service's own exception type.
 */
enum AwsService {
    EKS("eks", "Eks", EksClient.class, EksException::builder),
    EFS("efs", "Efs", EfsClient.class, EfsException::builder),
    FSX(
            "fsx",
            "FSx",
            software.amazon.awssdk.services.fsx.FSxClient.class,
            software.amazon.awssdk.services.fsx.model.FSxException::builder),
    CLOUD_CONTROL("cloudcontrol", "CloudControl", CloudControlClient.class, CloudControlException::builder),
    EVENTS("events", "CloudWatchEvents", CloudWatchEventsClient.class, CloudWatchEventsException::builder),
    STATES("states", "SFN", SfnClient.class, SfnException::builder);

    static final String REGION = "us-east-1";
    static final String ACCOUNT = "000000000000";

    private final String prefix;
    private final String serviceId;
    private final Set<String> operations;
    private final Supplier<? extends AwsServiceException.Builder> errors;

    AwsService(
            String prefix, String serviceId, Class<?> client, Supplier<? extends AwsServiceException.Builder> errors) {
        this.prefix = prefix;
        this.serviceId = serviceId;
        this.operations = Arrays.stream(client.getMethods())
                .map(m -> Character.toUpperCase(m.getName().charAt(0))
                        + m.getName().substring(1))
                .collect(Collectors.toUnmodifiableSet());
        this.errors = errors;
    }

    String prefix() {
        return prefix;
    }

    String serviceId() {
        return serviceId;
    }

    /** A builder of the service's base exception ({@code EksException}, {@code EfsException}, …). */
    AwsServiceException.Builder errorBuilder() {
        return errors.get();
    }

    boolean hasOperation(String operation) {
        return operations.contains(operation);
    }

    static AwsService byPrefix(String prefix) {
        for (AwsService service : values()) {
            if (service.prefix.equals(prefix.toLowerCase(Locale.ROOT))) {
                return service;
            }
        }
        throw new IllegalArgumentException("no simulated AWS service '" + prefix + "'; known: "
                + Arrays.stream(values()).map(AwsService::prefix).collect(Collectors.joining(", ")));
    }
}
