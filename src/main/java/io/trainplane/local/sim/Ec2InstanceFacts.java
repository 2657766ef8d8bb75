package io.trainplane.local.sim;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainplane.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The simulated EC2's own instance types: what {@code ec2:DescribeInstanceTypes} and
 * {@code ec2:DescribeInstanceTypeOfferings} answer, from the twin's copy of AWS's answers
 * ({@code src/main/resources/io/trainplane/local/sim/ec2-instance-types.json}, taken through
 * moto_server, which records them; its {@code source} says so). The twin's nodes, EFA cards and
 * DescribeInstanceTypes answers come from here, never from the product's catalog, so a wrong figure
 * there meets EC2's own in a local run. TwinInstanceFactsTest keeps the copy equal to the answers.
 */
public final class Ec2InstanceFacts {
    static final String RESOURCE = "/io/trainplane/local/sim/ec2-instance-types.json";

    /**
     * One DescribeInstanceTypes answer (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceTypeInfo.html):
     * VCpuInfo.DefaultVCpus, MemoryInfo.SizeInMiB, ProcessorInfo.SupportedArchitectures, GpuInfo
     * (NVIDIA GPUs: count, model, memory each), NeuronInfo, NetworkInfo.EfaInfo.MaximumEfaInterfaces,
     * the default network card's MaximumNetworkInterfaces, Ipv4AddressesPerInterface and
     * SupportedUsageClasses.
     */
    public record Fact(
            String name,
            int vcpus,
            long memoryMiB,
            List<String> architectures,
            int nvidiaGpus,
            String gpuModel,
            long gpuMemoryMiB,
            int neuronDevices,
            String neuronModel,
            int maxEfaInterfaces,
            int interfacesOnDefaultCard,
            int ipv4PerInterface,
            Set<String> usageClasses) {
        public Fact {
            architectures = List.copyOf(architectures);
            usageClasses = Set.copyOf(usageClasses);
        }

        /** The architecture EC2 lists first, x86_64 when it lists both. */
        public String architecture() {
            return architectures.contains("x86_64") || architectures.isEmpty() ? "x86_64" : architectures.getFirst();
        }
    }

    private record Data(Map<String, Fact> facts, Map<String, Set<String>> regions) {}

    private static final Data DATA = load();

    private Ec2InstanceFacts() {}

    public static Optional<Fact> of(String name) {
        return Optional.ofNullable(DATA.facts().get(name));
    }

    /** Every type the twin's EC2 knows, by name. */
    public static List<Fact> all() {
        return List.copyOf(DATA.facts().values());
    }

    /** Whether {@code region} sells the type: DescribeInstanceTypeOfferings; true in a Region the copy lacks. */
    public static boolean offeredIn(String type, String region) {
        Set<String> types = DATA.regions().get(region);
        return types == null || types.contains(type);
    }

    private static Data load() {
        try (InputStream in = Ec2InstanceFacts.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCE + " is missing from the build");
            }
            JsonNode root = Json.read(in);
            Map<String, Fact> facts = new TreeMap<>();
            root.path("instanceTypes").forEach(t -> facts.put(t.path("name").asText(), fact(t)));
            Map<String, Set<String>> regions = new TreeMap<>();
            root.path("regions").properties().forEach(e -> {
                Set<String> types = new TreeSet<>();
                e.getValue().forEach(t -> types.add(t.asText()));
                regions.put(e.getKey(), Collections.unmodifiableSet(types));
            });
            return new Data(Collections.unmodifiableMap(facts), Collections.unmodifiableMap(regions));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    private static Fact fact(JsonNode t) {
        JsonNode gpu = t.path("gpu");
        boolean nvidia = "NVIDIA".equals(gpu.path("manufacturer").asText());
        List<String> architectures = new ArrayList<>();
        t.path("architectures").forEach(a -> architectures.add(a.asText()));
        Set<String> usage = new TreeSet<>();
        t.path("usageClasses").forEach(u -> usage.add(u.asText()));
        return new Fact(
                t.path("name").asText(),
                t.path("vcpus").asInt(),
                t.path("memoryMiB").asLong(),
                architectures,
                nvidia ? gpu.path("count").asInt() : 0,
                nvidia ? gpu.path("model").asText() : null,
                nvidia ? gpu.path("memoryMiB").asLong() : 0,
                t.path("neuron").path("count").asInt(0),
                t.path("neuron").path("model").asText(null),
                t.path("maxEfaInterfaces").asInt(0),
                t.path("interfacesOnDefaultCard").asInt(),
                t.path("ipv4PerInterface").asInt(),
                usage);
    }
}
