package io.trainplane.bench;

import io.trainplane.bench.KubernetesRecorder.Request;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A function's own cold-start baseline (issue 19): the Java source of a minimal Lambda handler that
 * makes the AWS and Kubernetes calls the function made in its recorded invocation, in the same
 * order, with plain SDK and fabric8 code and nothing of Trainplane. It builds its SDK clients in
 * its constructor as AWS's guidance has it (UrlConnection HTTP client, environment credentials), and
 * reaches a cluster as any EKS client does: DescribeCluster's endpoint and CA, a bearer token
 * presigned with the SDK's SigV4 signer, fabric8 over the JDK HTTP client, objects as generic
 * resources. It reads its input as JSON and answers with the function's recorded output. A call
 * that fails is caught and the next one made, as the function went on past it.
 */
final class ColdStartBaselines {
    /** One AWS call as bench/ColdStartRecorder.java wrote it. */
    record AwsCall(long nanoTime, String client, String method, String request) {
        static AwsCall parse(String line) {
            String[] parts = line.split("\t", 5);
            if (parts.length != 5 || !parts[0].equals("aws")) {
                throw new IllegalArgumentException("not a recorded AWS call: " + line);
            }
            return new AwsCall(Long.parseLong(parts[1]), parts[2], parts[3], parts[4]);
        }
    }

    /** /api/v1/... or /apis/GROUP/VERSION/..., then [namespaces/NS/]PLURAL[/NAME[/SUBRESOURCE]]. */
    private static final Pattern PATH = Pattern.compile(
            "^/(?:api/(?<coreVersion>v1)|apis/(?<group>[^/]+)/(?<version>[^/]+))"
                    + "(?:/namespaces/(?<namespace>[^/]+)(?=/))?/(?<plural>[^/]+)(?:/(?<name>[^/]+)(?:/(?<sub>[^/]+))?)?$");

    private ColdStartBaselines() {}

    /** The handler's class name for a function. */
    static String className(String function) {
        return "Baseline" + function;
    }

    /** The calls made, for the report: "3 AWS + 5 Kubernetes". */
    static String calls(List<AwsCall> aws, List<Request> kubernetes) {
        return aws.size() + " AWS + " + kubernetes.size() + " Kubernetes";
    }

    static String source(String function, List<AwsCall> aws, List<Request> kubernetes, String output) {
        Map<String, String> clients = new LinkedHashMap<>();
        aws.forEach(call -> clients.computeIfAbsent(call.client(), c -> "client" + clients.size()));
        record Step(long at, String body) {}
        List<Step> steps = new ArrayList<>();
        for (AwsCall call : aws) {
            String invoke = clients.get(call.client()) + "." + call.method() + "(" + call.request() + ")";
            steps.add(new Step(
                    call.nanoTime(),
                    call.method().equals("describeCluster") && !kubernetes.isEmpty()
                            ? "var cluster = " + invoke + ".cluster();\n"
                                    + "            clusterName = cluster.name();\n"
                                    + "            endpoint = cluster.endpoint();\n"
                                    + "            ca = cluster.certificateAuthority() == null ? null : cluster.certificateAuthority().data();"
                            : invoke + ";"));
        }
        for (Request request : kubernetes) {
            steps.add(new Step(request.nanoTime(), kubernetesCall(request)));
        }
        steps.sort(Comparator.comparingLong(Step::at));

        StringBuilder out = new StringBuilder();
        out.append(
                """
                import com.amazonaws.services.lambda.runtime.Context;
                import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
                import com.fasterxml.jackson.databind.ObjectMapper;
                import java.io.IOException;
                import java.io.InputStream;
                import java.io.OutputStream;
                import java.net.URI;
                import java.nio.charset.StandardCharsets;
                import java.time.Duration;
                import java.util.Base64;
                import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
                import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
                import software.amazon.awssdk.core.exception.SdkException;
                import software.amazon.awssdk.http.SdkHttpClient;
                import software.amazon.awssdk.http.SdkHttpMethod;
                import software.amazon.awssdk.http.SdkHttpRequest;
                import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner.AuthLocation;
                import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
                import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
                import software.amazon.awssdk.regions.Region;

                /** A function's own baseline for ./bench/run coldstart, generated from its recorded calls. */
                public final class %s implements RequestStreamHandler {
                    private static final ObjectMapper JSON = new ObjectMapper();
                    private final SdkHttpClient http = UrlConnectionHttpClient.create();
                    private final AwsCredentialsProvider credentials = EnvironmentVariableCredentialsProvider.create();
                    private final Region region = Region.of(System.getenv("AWS_REGION"));
                """
                        .formatted(className(function)));
        clients.forEach((type, field) -> out.append("    private final ")
                .append(type)
                .append(' ')
                .append(field)
                .append(" = ")
                .append(type)
                .append(".builder().httpClient(http).region(region).credentialsProvider(credentials).build();\n"));
        boolean reachesKubernetes = !kubernetes.isEmpty();
        if (reachesKubernetes) {
            out.append(
                    """
                        private String clusterName;
                        private String endpoint;
                        private String ca;
                        private io.fabric8.kubernetes.client.KubernetesClient kubernetes;
                    """);
        }
        out.append(
                """

                    @Override
                    public void handleRequest(InputStream in, OutputStream out, Context context) throws IOException {
                        JSON.readTree(in);
                """);
        for (int i = 0; i < steps.size(); i++) {
            out.append("        call").append(i).append("();\n");
        }
        out.append("        out.write(").append(literal(output)).append(".getBytes(StandardCharsets.UTF_8));\n");
        out.append("    }\n");
        for (int i = 0; i < steps.size(); i++) {
            out.append("\n    private void call")
                    .append(i)
                    .append("() {\n        try {\n            ")
                    .append(steps.get(i).body())
                    .append("\n        } catch (SdkException")
                    .append(reachesKubernetes ? " | io.fabric8.kubernetes.client.KubernetesClientException" : "")
                    .append(" e) {\n            // As the function, which went on past it.\n        }\n    }\n");
        }
        if (reachesKubernetes) {
            out.append(KUBERNETES_ACCESS);
        }
        return out.append("}\n").toString();
    }

    /** How the baseline reaches the cluster and names its objects: plain SDK and fabric8. */
    private static final String KUBERNETES_ACCESS =
            """

                    private io.fabric8.kubernetes.client.KubernetesClient kubernetes() {
                        if (kubernetes == null) {
                            String token = token(clusterName);
                            kubernetes = new io.fabric8.kubernetes.client.KubernetesClientBuilder()
                                    .withHttpClientFactory(new io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory())
                                    .withConfig(new io.fabric8.kubernetes.client.ConfigBuilder(io.fabric8.kubernetes.client.Config.empty())
                                            .withMasterUrl(endpoint)
                                            .withCaCertData(ca)
                                            .withOauthToken(token)
                                            .withHttp2Disable(endpoint.startsWith("http://"))
                                            .build())
                                    .build();
                        }
                        return kubernetes;
                    }

                    /** The bearer token of aws eks get-token: a presigned STS GetCallerIdentity URL. */
                    private String token(String cluster) {
                        SdkHttpRequest request = SdkHttpRequest.builder()
                                .method(SdkHttpMethod.GET)
                                .uri(URI.create("https://sts." + region.id() + ".amazonaws.com/"))
                                .putRawQueryParameter("Action", "GetCallerIdentity")
                                .putRawQueryParameter("Version", "2011-06-15")
                                .putHeader("x-k8s-aws-id", cluster)
                                .build();
                        var signed = AwsV4HttpSigner.create().sign(r -> r.identity(credentials.resolveCredentials())
                                .request(request)
                                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "sts")
                                .putProperty(AwsV4HttpSigner.REGION_NAME, region.id())
                                .putProperty(AwsV4HttpSigner.AUTH_LOCATION, AuthLocation.QUERY_STRING)
                                .putProperty(AwsV4HttpSigner.EXPIRATION_DURATION, Duration.ofSeconds(60)));
                        return "k8s-aws-v1." + Base64.getUrlEncoder().withoutPadding()
                                .encodeToString(signed.request().getUri().toString().getBytes(StandardCharsets.UTF_8));
                    }

                    private static io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext resource(
                            String group, String version, String plural, boolean namespaced) {
                        return new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                                .withGroup(group)
                                .withVersion(version)
                                .withPlural(plural)
                                .withNamespaced(namespaced)
                                .build();
                    }

                    private <T> T typed(Class<T> type, String json) {
                        return kubernetes().getKubernetesSerialization().unmarshal(json, type);
                    }

                    private io.fabric8.kubernetes.api.model.GenericKubernetesResource object(String json) {
                        return kubernetes().getKubernetesSerialization()
                                .unmarshal(json, io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
                    }
                """;

    /** One Kubernetes request as fabric8's generic-resource DSL makes it. */
    static String kubernetesCall(Request request) {
        Matcher path = PATH.matcher(request.path());
        if (!path.matches()) {
            throw new IllegalArgumentException("the baseline cannot make " + request.method() + " " + request.path());
        }
        Map<String, String> query = query(request.query());
        String group = path.group("group") == null ? "" : path.group("group");
        String version = path.group("coreVersion") != null ? "v1" : path.group("version");
        String namespace = path.group("namespace");
        String plural = path.group("plural");
        String name = path.group("name");
        String sub = path.group("sub");
        if (namespace == null && plural.equals("namespaces") && name != null && sub != null) {
            throw new IllegalArgumentException("the baseline cannot make " + request.method() + " " + request.path());
        }
        if ("log".equals(sub) && plural.equals("pods")) {
            StringBuilder log = new StringBuilder("kubernetes().pods().inNamespace(")
                    .append(literal(namespace))
                    .append(").withName(")
                    .append(literal(name))
                    .append(')');
            if (query.containsKey("container")) {
                log.append(".inContainer(")
                        .append(literal(query.get("container")))
                        .append(')');
            }
            if (query.containsKey("tailLines")) {
                log.append(".tailingLines(").append(query.get("tailLines")).append(')');
            }
            if (query.containsKey("limitBytes")) {
                log.append(".limitBytes(").append(query.get("limitBytes")).append(')');
            }
            return log.append(".getLog();").toString();
        }
        // A built-in kind through its typed class, as plain fabric8 code reads and writes it; a custom resource
        // generically.
        Class<?> typed = typedClass(request.apiVersion(), request.kind());
        StringBuilder call = typed != null
                ? new StringBuilder("kubernetes().resources(")
                        .append(typed.getCanonicalName())
                        .append(".class)")
                : new StringBuilder("kubernetes().genericKubernetesResources(resource(")
                        .append(literal(group))
                        .append(", ")
                        .append(literal(version))
                        .append(", ")
                        .append(literal(plural))
                        .append(", ")
                        .append(namespace != null)
                        .append("))");
        String object = typed != null ? "typed(" + typed.getCanonicalName() + ".class, " : "object(";
        if (namespace != null) {
            call.append(".inNamespace(").append(literal(namespace)).append(')');
        }
        if (query.containsKey("labelSelector")) {
            call.append(".withLabelSelector(")
                    .append(literal(query.get("labelSelector")))
                    .append(')');
        }
        if (query.containsKey("fieldSelector")) {
            for (String field : query.get("fieldSelector").split(",")) {
                String[] kv = field.split("=", 2);
                call.append(".withField(")
                        .append(literal(kv[0]))
                        .append(", ")
                        .append(literal(kv[1]))
                        .append(')');
            }
        }
        String body = request.body();
        if (sub != null && !sub.equals("status")) {
            throw new IllegalArgumentException("the baseline cannot make " + request.method() + " " + request.path());
        }
        return switch (request.method()) {
            case "GET" -> name == null ? call + ".list();" : call + ".withName(" + literal(name) + ").get();";
            case "POST" -> call + ".resource(" + object + literal(body) + ")).create();";
            case "PUT" ->
                call + ".resource(" + object + literal(body) + "))." + (sub == null ? "update();" : "updateStatus();");
            case "PATCH" ->
                call + ".withName(" + literal(name) + ")"
                        + (sub == null ? "" : ".subresource(" + literal(sub) + ")") + ".patch("
                        + patchContext(request, query)
                        + ", " + literal(body) + ");";
            case "DELETE" -> {
                String propagation = propagation(body);
                yield call + (name == null ? "" : ".withName(" + literal(name) + ")")
                        + (propagation == null
                                ? ""
                                : ".withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation."
                                        + propagation.toUpperCase() + ")")
                        + ".delete();";
            }
            default ->
                throw new IllegalArgumentException(
                        "the baseline cannot make " + request.method() + " " + request.path());
        };
    }

    private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
            new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

    /** fabric8's model class of a built-in kind; null for a custom resource or an unknown kind. */
    static Class<?> typedClass(String apiVersion, String kind) {
        if (apiVersion == null || apiVersion.isEmpty() || kind == null || kind.isEmpty()) {
            return null;
        }
        Object sample = SERIALIZATION.<Object>unmarshal(
                "{\"apiVersion\":" + literal(apiVersion) + ",\"kind\":" + literal(kind) + "}");
        return sample instanceof io.fabric8.kubernetes.api.model.HasMetadata
                        && !(sample instanceof io.fabric8.kubernetes.api.model.GenericKubernetesResource)
                ? sample.getClass()
                : null;
    }

    private static String patchContext(Request request, Map<String, String> query) {
        String type =
                switch (request.contentType() == null
                        ? ""
                        : request.contentType().split(";")[0].strip()) {
                    case "application/merge-patch+json" -> "JSON_MERGE";
                    case "application/strategic-merge-patch+json" -> "STRATEGIC_MERGE";
                    case "application/json-patch+json" -> "JSON";
                    case "application/apply-patch+yaml" -> "SERVER_SIDE_APPLY";
                    default ->
                        throw new IllegalArgumentException("the baseline cannot patch with " + request.contentType());
                };
        StringBuilder context = new StringBuilder("new io.fabric8.kubernetes.client.dsl.base.PatchContext.Builder()"
                        + ".withPatchType(io.fabric8.kubernetes.client.dsl.base.PatchType.")
                .append(type)
                .append(')');
        if (query.containsKey("fieldManager")) {
            context.append(".withFieldManager(")
                    .append(literal(query.get("fieldManager")))
                    .append(')');
        }
        if (query.containsKey("force")) {
            context.append(".withForce(")
                    .append(Boolean.parseBoolean(query.get("force")))
                    .append(')');
        }
        return context.append(".build()").toString();
    }

    private static String propagation(String deleteBody) {
        Matcher policy = Pattern.compile("\"propagationPolicy\"\\s*:\\s*\"(\\w+)\"")
                .matcher(deleteBody == null ? "" : deleteBody);
        return policy.find() ? policy.group(1) : null;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw != null && !raw.isEmpty()) {
            for (String pair : raw.split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(
                        URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
                        kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
            }
        }
        return query;
    }

    /** A Java string literal; one over 16 K characters joined at run time (a class constant holds 64 KB). */
    static String literal(String s) {
        if (s == null) {
            return "null";
        }
        if (s.length() > 16_000) {
            List<String> parts = new ArrayList<>();
            for (int i = 0; i < s.length(); i += 16_000) {
                parts.add(literal(s.substring(i, Math.min(s.length(), i + 16_000))));
            }
            return "String.join(\"\", " + String.join(", ", parts) + ")";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> out.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return out.append('"').toString();
    }
}
