package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the EKS AMI's nodeadm configures a node's kubelet, as the twin's own implementation of it
 * (awslabs/amazon-eks-ami at 81fec2e8, MIT-0; nodeadm/internal/kubelet):
 *
 * <ul>
 *   <li>maxPods: {@code CalcMaxPods} without a custom expression is {@code calculateStandardMaxPods}
 *       (eni_max_pods.go): the ENIs of the default network card × (IPv4 addresses per ENI − 1) + 2,
 *       read from nodeadm's embedded {@code instance-info.jsonl} (the lines for the twin's types are
 *       copied to {@code src/main/resources/io/trainplane/local/sim/eks-ami-instance-info.jsonl});
 *       a type not in it is asked of EC2 ({@code GetInstanceInfo}), here the twin's
 *       {@link Ec2InstanceFacts}; none at all falls back to the kubelet's default of 110.</li>
 *   <li>kube-reserved cpu: {@code getCPUMillicoresToReserve} (config.go): 6 % of the first core, 1 %
 *       of the second, 0.5 % of the third and fourth, 0.25 % of the rest, each range rounded down
 *       on its own as Go's integer division does.</li>
 *   <li>kube-reserved memory: {@code getMemoryMebibytesToReserve} (config.go): 11 MiB × maxPods + 255 MiB.</li>
 *   <li>evictionHard {@code memory.available: 100Mi} ({@code defaultKubeletSubConfig}, config.go);
 *       allocatable is capacity less kube-reserved less the hard eviction threshold
 *       (https://kubernetes.io/docs/tasks/administer-cluster/reserve-compute-resources/#node-allocatable).</li>
 * </ul>
 */
public final class EksAmiKubelet {
    static final String INSTANCE_INFO = "/io/trainplane/local/sim/eks-ami-instance-info.jsonl";
    /** The kubelet's own default maxPods, nodeadm's {@code defaultMaxPods}. */
    static final int KUBELET_DEFAULT_MAX_PODS = 110;
    /** evictionHard memory.available. */
    static final long EVICTION_HARD_MIB = 100;

    /** One line of nodeadm's instance-info.jsonl. */
    record InstanceInfo(String instanceType, int defaultMaxEnis, int ipv4AddressesPerInterface) {}

    /** What the kubelet leaves pods: cpu in millicores, memory in MiB, and pods. */
    public record Allocatable(long millicores, long memoryMiB, int pods) {}

    private static final Map<String, InstanceInfo> CACHED = load();

    private EksAmiKubelet() {}

    /** nodeadm's cached line for {@code type}, if it has one. */
    static InstanceInfo instanceInfo(String type) {
        return CACHED.get(type);
    }

    /** The kubelet's maxPods on a node of {@code type}. */
    public static int maxPods(String type) {
        InstanceInfo info = CACHED.get(type);
        if (info == null) {
            info = Ec2InstanceFacts.of(type)
                    .map(f -> new InstanceInfo(type, f.interfacesOnDefaultCard(), f.ipv4PerInterface()))
                    .orElse(null);
        }
        return info == null
                ? KUBELET_DEFAULT_MAX_PODS
                : info.defaultMaxEnis() * (info.ipv4AddressesPerInterface() - 1) + 2;
    }

    /** kube-reserved cpu for a node of {@code cores} vCPUs. */
    static long reservedMillicores(int cores) {
        long total = cores * 1000L;
        long[] ranges = {0, 1000, 2000, 4000, total};
        long[] basisPoints = {600, 100, 50, 25};
        long reserved = 0;
        for (int i = 0; i < basisPoints.length; i++) {
            if (total > ranges[i]) {
                reserved += (Math.min(total, ranges[i + 1]) - ranges[i]) * basisPoints[i] / 10000;
            }
        }
        return reserved;
    }

    /** kube-reserved memory for a kubelet running at most {@code maxPods} pods. */
    static long reservedMemoryMiB(int maxPods) {
        return 11L * maxPods + 255;
    }

    /** What a node of {@code vcpus} and {@code memoryMiB} leaves its pods. */
    public static Allocatable allocatable(String type, int vcpus, long memoryMiB) {
        int pods = maxPods(type);
        return new Allocatable(
                vcpus * 1000L - reservedMillicores(vcpus),
                memoryMiB - reservedMemoryMiB(pods) - EVICTION_HARD_MIB,
                pods);
    }

    private static Map<String, InstanceInfo> load() {
        try (InputStream in = EksAmiKubelet.class.getResourceAsStream(INSTANCE_INFO)) {
            if (in == null) {
                throw new IllegalStateException("resource " + INSTANCE_INFO + " is missing from the build");
            }
            Map<String, InstanceInfo> info = new TreeMap<>();
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                if (line.isBlank()) {
                    continue;
                }
                JsonNode n = Json.read(line);
                info.put(
                        n.path("instanceType").asText(),
                        new InstanceInfo(
                                n.path("instanceType").asText(),
                                n.path("defaultMaxENIs").asInt(),
                                n.path("ipv4AddressesPerInterface").asInt()));
            }
            return Collections.unmodifiableMap(info);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + INSTANCE_INFO, e);
        }
    }
}
