package io.trainplane.aws.catalog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainplane.aws.SignedHttp;
import io.trainplane.core.Json;
import io.trainplane.core.TransientException;
import io.trainplane.spec.InstanceShapes;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The catalog as AWS answers it, without the EC2 SDK module (22 MB, more than the AWS artifact's
 * room) or the Price List's: EC2's Query protocol (a form POST of {@code Action}, {@code Version}
 * and the parameters, answered in XML; https://docs.aws.amazon.com/AWSEC2/latest/APIReference/Query-Requests.html,
 * https://smithy.io/2.0/aws/protocols/aws-ec2-query-protocol.html) and the Price List's AWS JSON
 * 1.1 protocol ({@code X-Amz-Target: AWSPriceListService.GetProducts}, at
 * {@code api.pricing.us-east-1.amazonaws.com}, one of the Price List's three endpoints:
 * https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/using-price-list-query-api.html).
 * Throttling and 5xx answers are {@link TransientException}s, a failed connection the SDK's
 * {@link SdkClientException}, as the SDK's clients throw it.
 */
public final class AwsInstanceCatalog implements InstanceCatalog {
    static final String EC2_VERSION = "2016-11-15";
    public static final String PRICE_LIST_TARGET = "AWSPriceListService.GetProducts";

    private final SignedHttp ec2;
    private final SignedHttp priceList;

    public AwsInstanceCatalog(SignedHttp ec2, SignedHttp priceList) {
        this.ec2 = ec2;
        this.priceList = priceList;
    }

    /** The catalog of {@code region}'s EC2, with the Price List's us-east-1 endpoint, each where the environment points it. */
    public static AwsInstanceCatalog of(
            software.amazon.awssdk.http.SdkHttpClient http,
            software.amazon.awssdk.auth.credentials.AwsCredentialsProvider credentials,
            software.amazon.awssdk.regions.Region region,
            Map<String, String> environment) {
        return new AwsInstanceCatalog(
                new SignedHttp(
                        http,
                        credentials,
                        "ec2",
                        region.id(),
                        SignedHttp.endpoint(environment, "EC2", SignedHttp.regionalHost("ec2", region))),
                new SignedHttp(
                        http,
                        credentials,
                        "pricing",
                        "us-east-1",
                        SignedHttp.endpoint(environment, "PRICING", "api.pricing.us-east-1.amazonaws.com")));
    }

    @Override
    public Map<String, InstanceShapes.Shape> describeInstanceTypes(Collection<String> types) {
        Map<String, InstanceShapes.Shape> found = new TreeMap<>();
        if (types.isEmpty()) {
            return found;
        }
        try {
            describe(List.copyOf(types)).forEach(s -> found.put(s.name(), s));
        } catch (CatalogError e) {
            if (!"InvalidInstanceType".equals(e.code()) || types.size() == 1) {
                if ("InvalidInstanceType".equals(e.code())) {
                    return found;
                }
                throw e;
            }
            // EC2 refuses the whole request for one unknown type: ask for each alone.
            for (String type : types) {
                found.putAll(describeInstanceTypes(List.of(type)));
            }
        }
        return found;
    }

    private List<InstanceShapes.Shape> describe(List<String> types) {
        List<InstanceShapes.Shape> shapes = new ArrayList<>();
        String token = null;
        do {
            Map<String, String> parameters = new LinkedHashMap<>();
            numbered(parameters, "InstanceType", types);
            if (token != null) {
                parameters.put("NextToken", token);
            }
            Element answer = query("DescribeInstanceTypes", parameters);
            for (Element item : items(child(answer, "instanceTypeSet"))) {
                shapes.add(InstanceShapes.shapeOf(fact(item)));
            }
            token = text(answer, "nextToken");
        } while (token != null && !token.isEmpty());
        return shapes;
    }

    /**
     * One DescribeInstanceTypes item as the catalog keeps it: the fields
     * {@code scripts/refresh-ec2-catalog.py}'s {@code fact} writes
     * (https://docs.aws.amazon.com/AWSEC2/latest/APIReference/API_InstanceTypeInfo.html).
     */
    static ObjectNode fact(Element t) {
        ObjectNode f = Json.object().put("name", text(t, "instanceType"));
        f.put("vcpus", Integer.parseInt(text(t, "vCpuInfo", "defaultVCpus")));
        f.put("memoryMiB", Long.parseLong(text(t, "memoryInfo", "sizeInMiB")));
        ArrayNode architectures = f.putArray("architectures");
        items(child(child(t, "processorInfo"), "supportedArchitectures"))
                .forEach(a -> architectures.add(a.getTextContent().trim()));
        List<Element> gpus = items(child(child(t, "gpuInfo"), "gpus"));
        if (!gpus.isEmpty()) {
            Element g = gpus.getFirst();
            f.putObject("gpu")
                    .put("count", Integer.parseInt(text(g, "count")))
                    .put("manufacturer", text(g, "manufacturer"))
                    .put("model", text(g, "name"))
                    .put("memoryMiB", Long.parseLong(text(g, "memoryInfo", "sizeInMiB")));
        }
        List<Element> neuron = items(child(child(t, "neuronInfo"), "neuronDevices"));
        if (!neuron.isEmpty()) {
            Element d = neuron.getFirst();
            f.putObject("neuron")
                    .put("count", Integer.parseInt(text(d, "count")))
                    .put("model", text(d, "name"));
        }
        Element network = child(t, "networkInfo");
        if ("true".equals(text(network, "efaSupported"))) {
            f.put("maxEfaInterfaces", Integer.parseInt(text(network, "efaInfo", "maximumEfaInterfaces")));
        }
        String defaultCard =
                Optional.ofNullable(text(network, "defaultNetworkCardIndex")).orElse("0");
        List<Element> cards = items(child(network, "networkCards"));
        String interfaces = cards.stream()
                .filter(c -> defaultCard.equals(text(c, "networkCardIndex")))
                .map(c -> text(c, "maximumNetworkInterfaces"))
                .findFirst()
                .orElse(text(network, "maximumNetworkInterfaces"));
        f.put("networkCards", Math.max(1, cards.size()));
        f.put("interfacesOnDefaultCard", Integer.parseInt(interfaces));
        f.put("ipv4PerInterface", Integer.parseInt(text(network, "ipv4AddressesPerInterface")));
        ArrayNode usage = f.putArray("usageClasses");
        items(child(t, "supportedUsageClasses"))
                .forEach(u -> usage.add(u.getTextContent().trim()));
        return f;
    }

    @Override
    public Map<String, Double> onDemandPerHour(String region, Collection<String> types) {
        Map<String, Double> prices = new TreeMap<>();
        for (String type : types) {
            ObjectNode body = Json.object().put("ServiceCode", "AmazonEC2").put("FormatVersion", "aws_v1");
            ArrayNode filters = body.putArray("Filters");
            Map<String, String> match = new LinkedHashMap<>();
            match.put("regionCode", region);
            match.put("instanceType", type);
            match.put("operatingSystem", "Linux");
            match.put("tenancy", "Shared");
            match.put("preInstalledSw", "NA");
            match.put("capacitystatus", "Used");
            match.forEach((field, value) -> filters.addObject()
                    .put("Type", "TERM_MATCH")
                    .put("Field", field)
                    .put("Value", value));
            onDemand(getProducts(body)).ifPresent(usd -> prices.put(type, usd));
        }
        return prices;
    }

    /** The first non-zero On-Demand price of a GetProducts answer (its PriceList items are JSON documents as strings). */
    static Optional<Double> onDemand(JsonNode answer) {
        for (JsonNode item : answer.path("PriceList")) {
            JsonNode product = item.isTextual() ? Json.read(item.asText()) : item;
            for (JsonNode term : product.path("terms").path("OnDemand")) {
                for (JsonNode dimension : term.path("priceDimensions")) {
                    double usd = dimension.path("pricePerUnit").path("USD").asDouble(0);
                    if (usd > 0) {
                        return Optional.of(usd);
                    }
                }
            }
        }
        return Optional.empty();
    }

    @Override
    public Map<String, Double> spotPerHour(Collection<String> types, Instant since) {
        Map<String, Map<String, Instant>> newest = new HashMap<>();
        Map<String, Map<String, Double>> latest = new TreeMap<>();
        String token = null;
        do {
            Map<String, String> parameters = new LinkedHashMap<>();
            numbered(parameters, "InstanceType", List.copyOf(types));
            parameters.put("ProductDescription.1", "Linux/UNIX");
            parameters.put("StartTime", since.toString());
            if (token != null) {
                parameters.put("NextToken", token);
            }
            Element answer = query("DescribeSpotPriceHistory", parameters);
            for (Element p : items(child(answer, "spotPriceHistorySet"))) {
                String type = text(p, "instanceType");
                String zone = text(p, "availabilityZone");
                Instant at = Instant.parse(text(p, "timestamp"));
                Instant seen =
                        newest.computeIfAbsent(type, t -> new HashMap<>()).get(zone);
                if (seen == null || at.isAfter(seen)) {
                    newest.get(type).put(zone, at);
                    latest.computeIfAbsent(type, t -> new TreeMap<>())
                            .put(zone, Double.parseDouble(text(p, "spotPrice")));
                }
            }
            token = text(answer, "nextToken");
        } while (token != null && !token.isEmpty());
        Map<String, Double> medians = new TreeMap<>();
        latest.forEach((type, zones) -> medians.put(type, median(List.copyOf(zones.values()))));
        return medians;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    @Override
    public Optional<CapacityBlockOffering> capacityBlockOffering(String type, int count, int hours) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("InstanceType", type);
        parameters.put("InstanceCount", String.valueOf(count));
        parameters.put("CapacityDurationHours", String.valueOf(hours));
        Element answer = query("DescribeCapacityBlockOfferings", parameters);
        return items(child(answer, "capacityBlockOfferingSet")).stream()
                .filter(o -> "USD"
                        .equals(Optional.ofNullable(text(o, "currencyCode")).orElse("USD")))
                .map(o -> new CapacityBlockOffering(
                        text(o, "instanceType"),
                        Integer.parseInt(text(o, "instanceCount")),
                        Integer.parseInt(text(o, "capacityBlockDurationHours")),
                        Double.parseDouble(text(o, "upfrontFee"))))
                .min(java.util.Comparator.comparingDouble(CapacityBlockOffering::upfrontFee));
    }

    private static void numbered(Map<String, String> parameters, String name, List<String> values) {
        for (int i = 0; i < values.size(); i++) {
            parameters.put(name + "." + (i + 1), values.get(i));
        }
    }

    /** The form body of an EC2 Query request. */
    static String form(String action, Map<String, String> parameters) {
        Map<String, String> all = new LinkedHashMap<>();
        all.put("Action", action);
        all.put("Version", EC2_VERSION);
        all.putAll(parameters);
        return all.entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    }

    private static String encode(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private Element query(String action, Map<String, String> parameters) {
        byte[] body = form(action, parameters).getBytes(StandardCharsets.UTF_8);
        SignedHttp.Answer answer;
        try {
            answer = ec2.post(Map.of("Content-Type", "application/x-www-form-urlencoded; charset=utf-8"), body);
        } catch (IOException e) {
            // As the SDK's own clients: the functions' failure handling retries it (AWS could not be reached).
            throw SdkClientException.create("EC2 " + action + " failed: " + e.getMessage(), e);
        }
        Element root = answer.body().length == 0 ? null : xml(answer.body());
        if (answer.ok() && root != null) {
            return root;
        }
        // https://docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html:
        // Response/Errors/Error/{Code,Message}.
        Element error = root == null ? null : child(child(root, "Errors"), "Error");
        String code = error == null ? "HTTP" + answer.status() : text(error, "Code");
        String message = error == null ? "" : text(error, "Message");
        if (answer.status() >= 500 || code.contains("Throttl") || "RequestLimitExceeded".equals(code)) {
            throw new TransientException(
                    "EC2 " + action + " answered " + answer.status() + " " + code + ": " + message);
        }
        throw new CatalogError("EC2 " + action, code, message);
    }

    private JsonNode getProducts(ObjectNode first) {
        ArrayNode all = Json.mapper().createArrayNode();
        ObjectNode body = first;
        while (true) {
            JsonNode page = priceListCall(body);
            page.path("PriceList").forEach(all::add);
            String token = page.path("NextToken").asText("");
            if (token.isEmpty()) {
                break;
            }
            body = first.deepCopy().put("NextToken", token);
        }
        ObjectNode answer = Json.object();
        answer.set("PriceList", all);
        return answer;
    }

    private JsonNode priceListCall(ObjectNode body) {
        SignedHttp.Answer answer;
        try {
            answer = priceList.post(
                    Map.of("Content-Type", "application/x-amz-json-1.1", "X-Amz-Target", PRICE_LIST_TARGET),
                    Json.write(body).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw SdkClientException.create("Price List GetProducts failed: " + e.getMessage(), e);
        }
        if (answer.ok()) {
            return answer.body().length == 0
                    ? Json.object()
                    : Json.read(new String(answer.body(), StandardCharsets.UTF_8));
        }
        SignedHttp.JsonError error = answer.jsonError("HTTP" + answer.status());
        String code = error.code();
        String message = error.message();
        if (answer.status() >= 500 || code.contains("Throttl")) {
            throw new TransientException(
                    "Price List GetProducts answered " + answer.status() + " " + code + ": " + message);
        }
        throw new CatalogError("Price List GetProducts", code, message);
    }

    // --- XML: EC2's answers, read with the JDK's parser (no DOCTYPE, no external entities) ---

    private static Element xml(byte[] bytes) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder()
                    .parse(new ByteArrayInputStream(bytes))
                    .getDocumentElement();
        } catch (ParserConfigurationException | SAXException | IOException e) {
            return null;
        }
    }

    /** The first child element named {@code name} (namespaces aside), or null. */
    static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && name.equals(localName(e))) {
                return e;
            }
        }
        return null;
    }

    private static String localName(Element e) {
        return e.getLocalName() != null ? e.getLocalName() : e.getTagName();
    }

    /** The {@code <item>} children of a list element; none when it is absent. */
    static List<Element> items(Element list) {
        List<Element> items = new ArrayList<>();
        if (list != null) {
            for (Node n = list.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && "item".equals(localName(e))) {
                    items.add(e);
                }
            }
        }
        return items;
    }

    /** The trimmed text at the path of child names, or null when a step is absent. */
    static String text(Element from, String... path) {
        Element at = from;
        for (String name : path) {
            at = child(at, name);
        }
        return at == null ? null : at.getTextContent().trim();
    }
}
