package io.trainplane.local.sim;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Faults injected into the simulated AWS account, one mechanism for every service. Operations are
 * named as the call log names them, {@code service:Operation} ({@code eks:CreateCluster},
 * {@code efs:CreateMountTarget}, {@code cloudcontrol:CreateResource}, {@code events:PutEvents}).
 * <ul>
 * <li>{@link #fail}: every call throws the service's exception ({@code EksException}, …), status
 *     400, error code {@value #INJECTED_ERROR_CODE}: an error no retry gets past.</li>
 * <li>{@link #throttle}: the next call throws the service's exception with error code
 *     {@value #THROTTLING_ERROR_CODE} ({@code isThrottlingException()} is true); later calls succeed.</li>
 * <li>{@link #timeoutAfter}: the next call that succeeds does its work, then throws
 *     {@link SdkClientException}, as when a Lambda times out after AWS accepted a create.</li>
 * <li>{@link #failAfter}: the first calls succeed, every later one fails as with {@link #fail}:
 *     a failure half-way through (some mount targets made, then none).</li>
 * </ul>
 * A failing operation fails before it changes anything; throttles and timeouts strike once each
 * time they are armed.
 */
public final class FaultPlan {
    public static final String INJECTED_ERROR_CODE = "InjectedFault";
    public static final String THROTTLING_ERROR_CODE = "ThrottlingException";

    private final Set<String> failures = ConcurrentHashMap.newKeySet();
    private final Set<String> throttles = ConcurrentHashMap.newKeySet();
    private final Set<String> timeouts = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicInteger> failAfter = new ConcurrentHashMap<>();

    public FaultPlan fail(String service, String operation) {
        failures.add(key(service, operation));
        return this;
    }

    /** {@code fail("eks:CreateCluster")}. */
    public FaultPlan fail(String serviceOperation) {
        failures.add(key(serviceOperation));
        return this;
    }

    public FaultPlan throttle(String service, String operation) {
        throttles.add(key(service, operation));
        return this;
    }

    /** {@code throttle("efs:DescribeFileSystems")}. */
    public FaultPlan throttle(String serviceOperation) {
        throttles.add(key(serviceOperation));
        return this;
    }

    public FaultPlan timeoutAfter(String service, String operation) {
        timeouts.add(key(service, operation));
        return this;
    }

    public FaultPlan timeoutAfter(String serviceOperation) {
        timeouts.add(key(serviceOperation));
        return this;
    }

    /** {@code failAfter("efs:CreateMountTarget", 1)}: the first call succeeds, the later ones fail. */
    public FaultPlan failAfter(String serviceOperation, int successfulCalls) {
        failAfter.put(key(serviceOperation), new AtomicInteger(successfulCalls));
        return this;
    }

    /** Lifts every fault. */
    public void clear() {
        failAfter.clear();
        failures.clear();
        throttles.clear();
        timeouts.clear();
    }

    /** What is armed, as {@code fail eks:CreateCluster}, {@code throttle …}, {@code timeout …}. */
    public Set<String> armed() {
        Set<String> armed = new TreeSet<>();
        failures.forEach(k -> armed.add("fail " + k));
        failAfter.forEach((k, n) -> armed.add("fail after " + n.get() + " " + k));
        throttles.forEach(k -> armed.add("throttle " + k));
        timeouts.forEach(k -> armed.add("timeout " + k));
        return armed;
    }

    /** Before the work of a call: an injected failure or throttle is thrown here. */
    void beforeCall(AwsService service, String operation) {
        String key = service.prefix() + ":" + operation;
        AtomicInteger allowed = failAfter.get(key);
        if (failures.contains(key) || (allowed != null && allowed.getAndDecrement() <= 0)) {
            throw AwsErrors.of(
                    service,
                    service.errorBuilder(),
                    400,
                    INJECTED_ERROR_CODE,
                    "Fault injected into " + key + ": the simulated account refuses this call");
        }
        if (throttles.remove(key)) {
            throw AwsErrors.of(
                    service,
                    service.errorBuilder(),
                    400,
                    THROTTLING_ERROR_CODE,
                    "Rate exceeded (throttling injected into " + key + ")");
        }
    }

    /**
     * Before an S3 call (S3 has no SDK client here, so its own exception): an injected failure
     * refuses it as the other services' do; an injected throttle answers S3's 503 SlowDown once.
     */
    void beforeS3Call(String operation) {
        String key = SimulatedS3.SERVICE + ":" + operation;
        AtomicInteger allowed = failAfter.get(key);
        if (failures.contains(key) || (allowed != null && allowed.getAndDecrement() <= 0)) {
            throw new SimulatedS3.S3Exception(
                    400,
                    INJECTED_ERROR_CODE,
                    "Fault injected into " + key + ": the simulated account refuses this call");
        }
        if (throttles.remove(key)) {
            throw new SimulatedS3.S3Exception(
                    503, "SlowDown", "Please reduce your request rate. (throttling injected into " + key + ")");
        }
    }

    /**
     * Before a call to the instance catalog (EC2's DescribeInstanceTypes, the Price List): an
     * injected failure is the service's refusal, an injected throttle a transient error once.
     */
    void beforeCatalogCall(String service, String operation) {
        String key = service + ":" + operation;
        AtomicInteger allowed = failAfter.get(key);
        if (failures.contains(key) || (allowed != null && allowed.getAndDecrement() <= 0)) {
            throw new io.trainplane.aws.catalog.InstanceCatalog.CatalogError(
                    key,
                    INJECTED_ERROR_CODE,
                    "Fault injected into " + key + ": the simulated account refuses this call");
        }
        if (throttles.remove(key)) {
            throw new io.trainplane.core.TransientException(
                    key + " answered 400 " + THROTTLING_ERROR_CODE + ": Rate exceeded (throttling injected)");
        }
    }

    /** After the work of a call succeeded: an injected timeout is thrown here. */
    void afterCall(AwsService service, String operation) {
        String key = service.prefix() + ":" + operation;
        if (timeouts.remove(key)) {
            throw SdkClientException.create(key + ": the Lambda timed out after AWS accepted the request (injected)");
        }
    }

    private static String key(String serviceOperation) {
        int colon = serviceOperation.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(
                    "expected service:Operation (like eks:CreateCluster), got '" + serviceOperation + "'");
        }
        return key(serviceOperation.substring(0, colon), serviceOperation.substring(colon + 1));
    }

    private static String key(String service, String operation) {
        if (service.equals(SimulatedS3.SERVICE)) {
            if (!SimulatedS3.OPERATIONS.contains(operation)) {
                throw new IllegalArgumentException("s3 has no simulated operation '" + operation + "' (it has "
                        + String.join(", ", new TreeSet<>(SimulatedS3.OPERATIONS)) + ")");
            }
            return service + ":" + operation;
        }
        Set<String> catalog = SimulatedInstanceCatalog.OPERATIONS.get(service);
        if (catalog != null) {
            if (!catalog.contains(operation)) {
                throw new IllegalArgumentException(service + " has no simulated operation '" + operation + "' (it has "
                        + String.join(", ", new TreeSet<>(catalog)) + ")");
            }
            return service + ":" + operation;
        }
        AwsService known = AwsService.byPrefix(service);
        if (!known.hasOperation(operation)) {
            throw new IllegalArgumentException(
                    known.prefix() + " has no operation '" + operation + "' (expected a name like CreateCluster)");
        }
        return known.prefix() + ":" + operation;
    }
}
