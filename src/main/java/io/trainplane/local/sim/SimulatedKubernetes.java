package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.trainplane.kubernetes.MpiJobs;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * One cluster's Kubernetes API server for local mode: the fabric8 mock server in CRUD mode (objects
 * are stored, listed by label and deleted as on a real cluster) on a loopback port, which the
 * handlers reach over HTTP like any API server. It starts empty, with no CustomResourceDefinition:
 * a custom resource is served only once its CRD has been created through the API (the CRUD
 * dispatcher then registers it, status subresource included); until then its paths answer 404 as
 * an API server does for a resource it does not know.
 */
public final class SimulatedKubernetes implements AutoCloseable {
    // The mock server logs every request at INFO; local runs show their own progress instead.
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        // The mock server runs on Netty; without Unsafe it works the same and JDK 24+ prints no warnings.
        System.setProperty("io.netty.noUnsafe", "true");
    }

    /** /apis/GROUP/VERSION/[namespaces/NS/]PLURAL...: group 1 the group, 3 or 4 the plural. */
    private static final java.util.regex.Pattern CUSTOM_RESOURCE =
            java.util.regex.Pattern.compile("^/apis/([^/]+)/([^/?]+)/(?:namespaces/[^/?]+/([^/?]+)|([^/?]+))");
    /** The API groups a Kubernetes API server serves without any CRD (kubectl api-resources on a bare cluster). */
    static final java.util.Set<String> BUILT_IN_GROUPS = java.util.Set.of(
            "admissionregistration.k8s.io",
            "apiextensions.k8s.io",
            "apiregistration.k8s.io",
            "apps",
            "authentication.k8s.io",
            "authorization.k8s.io",
            "autoscaling",
            "batch",
            "certificates.k8s.io",
            "coordination.k8s.io",
            "discovery.k8s.io",
            "events.k8s.io",
            "flowcontrol.apiserver.k8s.io",
            "networking.k8s.io",
            "node.k8s.io",
            "policy",
            "rbac.authorization.k8s.io",
            "resource.k8s.io",
            "scheduling.k8s.io",
            "storage.k8s.io");

    private static final java.util.regex.Pattern POD_LOG =
            java.util.regex.Pattern.compile("^/api/v1/namespaces/([^/]+)/pods/([^/?]+)/log(\\?.*)?$");

    private volatile java.util.function.BiFunction<
                    io.fabric8.kubernetes.api.model.batch.v1.Job,
                    io.fabric8.kubernetes.api.model.Pod,
                    java.util.Optional<String>>
            logs = (job, pod) -> java.util.Optional.empty();
    private final KubernetesCrudDispatcher dispatcher;
    private final KubernetesMockServer server;
    private final KubernetesClient admin;
    /** The control plane's own credential (its controllers'), which no gate questions. */
    private final String controlPlaneToken = UUID.randomUUID().toString();

    private volatile Gate gate;
    /** Requests that may have changed the store (every method but GET), for readers that cache what they listed. */
    private final java.util.concurrent.atomic.AtomicLong writeCount = new java.util.concurrent.atomic.AtomicLong();

    private final java.util.concurrent.atomic.AtomicLong watches = new java.util.concurrent.atomic.AtomicLong();
    /** GROUP/PLURAL of the resources the stored CRDs define; null after a write to the CRDs, until read again. */
    private volatile java.util.Set<String> servedResources;

    private volatile Labeled labeled;

    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    /** CRDs created and not yet Established: the names the apiextensions controller still has to accept. */
    private final java.util.Queue<String> newDefinitions = new java.util.concurrent.ConcurrentLinkedQueue<>();
    /** What callers other than the control plane sent to be stored, oldest first (see {@link #writes()}). */
    private final List<Write> writes = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Decides whether a request may reach the objects: null to let it through, or the refusal to answer with. */
    public interface Gate {
        Refusal check(String method, String path, String authorization);
    }

    /** An answer instead of the request's: 401 Unauthorized or 403 Forbidden, as a Kubernetes Status. */
    public record Refusal(int code, String reason, String message) {}

    public SimulatedKubernetes() {
        dispatcher = new KubernetesCrudDispatcher(new ArrayList<>()) {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                try {
                    return serve(request);
                } catch (RuntimeException e) {
                    // An unanswered request hangs its client: answer as an API server does on an internal error.
                    java.util.logging.Logger.getLogger(SimulatedKubernetes.class.getName())
                            .log(Level.WARNING, "simulated API server failed on " + request.getPath(), e);
                    return new MockResponse()
                            .setResponseCode(500)
                            .setHeader("Content-Type", "application/json")
                            .setBody(io.fabric8.kubernetes.client.utils.Serialization.asJson(new StatusBuilder()
                                    .withStatus("Failure")
                                    .withReason("InternalError")
                                    .withMessage(String.valueOf(e))
                                    .withCode(500)
                                    .build()));
                }
            }

            private MockResponse serve(RecordedRequest request) {
                MockResponse refused = refusal(request);
                if (refused != null) {
                    return refused;
                }
                if (request.getPath().matches(".*[?&]watch=(true|1)(&.*)?")) {
                    watches.incrementAndGet();
                }
                MockResponse unknown = unknownResource(request.getPath());
                if (unknown != null) {
                    return unknown;
                }
                MockResponse denied = admission(request);
                if (denied != null) {
                    return denied;
                }
                record(request);
                String definition = definitionCreated(request);
                MockResponse response = super.dispatch(request);
                if (definition != null && response.code() == 201) {
                    newDefinitions.add(definition);
                }
                if (!"GET".equals(request.getMethod())) {
                    // After the store changed: a reader that saw the old count reads again.
                    writeCount.incrementAndGet();
                    if (request.getPath().startsWith(CRDS)) {
                        servedResources = null;
                    }
                }
                return response;
            }

            /**
             * 403 when an installed operator's validating webhook denies the write (AdmissionWebhooks):
             * the API server asks it once the operator's ValidatingWebhookConfiguration exists.
             */
            private MockResponse admission(RecordedRequest request) {
                MockResponse podSecurity = podSecurity(request);
                if (podSecurity != null) {
                    return podSecurity;
                }
                var webhook = AdmissionWebhooks.matching(request.getMethod(), request.getPath());
                if (webhook.isEmpty()
                        || super.handleGet("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/"
                                                + webhook.get().configuration())
                                        .code()
                                != 200) {
                    return null;
                }
                var errors = webhook.get()
                        .rules()
                        .apply(io.trainplane.core.Json.read(
                                new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8)));
                if (errors.isEmpty()) {
                    return null;
                }
                return forbidden(AdmissionWebhooks.denial(webhook.get(), errors));
            }

            /** 403 for a pod its namespace's Pod Security level forbids (PodSecurityAdmission). */
            private MockResponse podSecurity(RecordedRequest request) {
                var namespace = PodSecurityAdmission.podCreate(request.getMethod(), request.getPath());
                if (namespace.isEmpty()) {
                    return null;
                }
                var stored = super.handleGet("/api/v1/namespaces/" + namespace.get());
                if (stored.code() != 200) {
                    return null;
                }
                var level = PodSecurityAdmission.level(
                        io.trainplane.core.Json.read(stored.getBody().readUtf8()));
                if (level.isEmpty()) {
                    return null;
                }
                var pod = io.trainplane.core.Json.read(
                        new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8));
                var violations = PodSecurityAdmission.violations(pod);
                if (violations.isEmpty()) {
                    return null;
                }
                return forbidden(PodSecurityAdmission.denial(
                        pod.path("metadata").path("name").asText(), level.get(), violations));
            }

            private MockResponse forbidden(String message) {
                var status = new StatusBuilder()
                        .withStatus("Failure")
                        .withMessage(message)
                        .withReason("Forbidden")
                        .withCode(403)
                        .build();
                return new MockResponse()
                        .setResponseCode(403)
                        .setHeader("Content-Type", "application/json")
                        .setBody(io.fabric8.kubernetes.client.utils.Serialization.asJson(status));
            }

            /** 404 for a resource of an API group Kubernetes does not build in and no CRD defines. */
            private MockResponse unknownResource(String path) {
                java.util.regex.Matcher m = CUSTOM_RESOURCE.matcher(path);
                if (!m.find() || BUILT_IN_GROUPS.contains(m.group(1))) {
                    return null;
                }
                String plural = m.group(4) != null ? m.group(4) : m.group(3);
                if (servedResources().contains(m.group(1) + "/" + plural)) {
                    return null;
                }
                var status = new StatusBuilder()
                        .withStatus("Failure")
                        .withMessage("the server could not find the requested resource")
                        .withReason("NotFound")
                        .withCode(404)
                        .build();
                return new MockResponse()
                        .setResponseCode(404)
                        .setHeader("Content-Type", "application/json")
                        .setBody(io.fabric8.kubernetes.client.utils.Serialization.asJson(status));
            }

            @Override
            public io.fabric8.mockwebserver.http.MockResponse handleGet(String path) {
                java.util.regex.Matcher m = POD_LOG.matcher(path);
                if (m.find()) {
                    // Read from the store directly: a client call from here would wait for this very thread.
                    String log = "";
                    var podResponse = super.handleGet("/api/v1/namespaces/" + m.group(1) + "/pods/" + m.group(2));
                    if (podResponse.code() == 200) {
                        var pod = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                                podResponse.getBody().readUtf8(), io.fabric8.kubernetes.api.model.Pod.class);
                        String jobName = pod.getMetadata().getLabels() == null
                                ? null
                                : pod.getMetadata().getLabels().get("job-name");
                        var jobResponse = jobName == null
                                ? null
                                : super.handleGet("/apis/batch/v1/namespaces/" + m.group(1) + "/jobs/" + jobName);
                        if (jobResponse != null && jobResponse.code() == 200) {
                            var job = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                                    jobResponse.getBody().readUtf8(),
                                    io.fabric8.kubernetes.api.model.batch.v1.Job.class);
                            log = logs.apply(job, pod).orElse("");
                        } else if (jobName == null) {
                            // A PyTorchJob's pod: its workload reads the PyTorchJob as a Job, as it runs it.
                            String pytorchJob = pod.getMetadata().getLabels() == null
                                    ? null
                                    : pod.getMetadata()
                                            .getLabels()
                                            .get(io.trainplane.kubernetes.PyTorchJobs.JOB_NAME_LABEL);
                            var owner = pytorchJob == null
                                    ? null
                                    : super.handleGet("/apis/kubeflow.org/v1/namespaces/" + m.group(1) + "/pytorchjobs/"
                                            + pytorchJob);
                            if (owner != null && owner.code() == 200) {
                                var job = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                                        owner.getBody().readUtf8(),
                                        io.fabric8.kubernetes.api.model.GenericKubernetesResource.class);
                                if ("PyTorchJob".equals(job.getKind())) {
                                    log = logs.apply(PyTorchJobController.asJob(job), pod)
                                            .orElse("");
                                }
                            }
                        }
                    }
                    return new io.fabric8.mockwebserver.http.MockResponse()
                            .setResponseCode(200)
                            .setBody(log);
                }
                return super.handleGet(path);
            }
        };
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        admin = server.createClient(
                // HTTP/1.1: see EksClusterAccess on the JDK client's h2c upgrade over plain http.
                b -> b.editOrNewConfig()
                        .withOauthToken(controlPlaneToken)
                        .withHttp2Disable(true)
                        .endConfig());
    }

    /**
     * Puts {@code gate} in front of every request but the control plane's; without one (tests
     * that bring their own EKS, the cold-start benchmark) any bearer token is let in.
     */
    public void guardedBy(Gate gate) {
        this.gate = gate;
    }

    private MockResponse refusal(RecordedRequest request) {
        Gate current = gate;
        String authorization = request.getHeader("Authorization");
        if (current == null || ("Bearer " + controlPlaneToken).equals(authorization)) {
            return null;
        }
        Refusal refused = current.check(request.getMethod(), request.getPath(), authorization);
        if (refused == null) {
            return null;
        }
        var status = new StatusBuilder()
                .withStatus("Failure")
                .withMessage(refused.message())
                .withReason(refused.reason())
                .withCode(refused.code())
                .build();
        return new MockResponse()
                .setResponseCode(refused.code())
                .setHeader("Content-Type", "application/json")
                .setBody(io.fabric8.kubernetes.client.utils.Serialization.asJson(status));
    }

    /** One write a caller other than the control plane sent: its method, path and body (JSON or, for a patch, the patch). */
    public record Write(String method, String path, String contentType, String body) {}

    /**
     * Every POST, PUT and PATCH that callers other than the control plane (the run's functions,
     * the user) sent past the gate, in order: every object the project creates, whichever
     * manifest builder made it, for the tests that validate them against the published schemas.
     */
    public List<Write> writes() {
        return List.copyOf(writes);
    }

    private void record(RecordedRequest request) {
        String method = request.getMethod();
        boolean write = "POST".equals(method) || "PUT".equals(method) || "PATCH".equals(method);
        if (write && !("Bearer " + controlPlaneToken).equals(request.getHeader("Authorization"))) {
            // getBytes, not readUtf8: reading would empty the body before the dispatcher stores it.
            byte[] body =
                    request.getBody() == null ? new byte[0] : request.getBody().getBytes();
            writes.add(new Write(
                    method,
                    request.getPath(),
                    request.getHeader("Content-Type"),
                    new String(body, java.nio.charset.StandardCharsets.UTF_8)));
        }
    }

    /** The name of the CRD {@code request} creates, or null. Read before dispatching: the dispatcher empties the body. */
    private static String definitionCreated(RecordedRequest request) {
        if (!"POST".equals(request.getMethod()) || !CRDS.equals(request.getPath())) {
            return null;
        }
        String body = new String(request.getBody().getBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return io.trainplane.core.Json.read(body).path("metadata").path("name").asText();
    }

    /** The CRDs created since the last call, by name (read once: the training operator's are 3.7 MB). */
    List<String> takeNewDefinitions() {
        List<String> names = new ArrayList<>();
        for (String name; (name = newDefinitions.poll()) != null; ) {
            names.add(name);
        }
        return names;
    }

    /** Where pod logs come from: (the pod's Job, the pod) → the log so far. */
    public void servingLogs(
            java.util.function.BiFunction<
                            io.fabric8.kubernetes.api.model.batch.v1.Job,
                            io.fabric8.kubernetes.api.model.Pod,
                            java.util.Optional<String>>
                    logs) {
        this.logs = logs;
    }

    /** The API server's URL, as DescribeCluster reports an endpoint. */
    public String endpoint() {
        String url = server.url("/");
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    /** A client with the cluster operator's rights, for the simulated controllers and for tests. */
    public KubernetesClient admin() {
        return admin;
    }

    /** How many requests that may change objects the server has answered: unchanged, a list read before is still current. */
    /**
     * How many watches were asked for. The control plane polls, it never watches: a step is a
     * Lambda invocation that returns. (A watch closing also holds the mock server's event loop while
     * its sender stops, up to a minute: WatchEventsListener.onClosed.)
     */
    public long watches() {
        return watches.get();
    }

    long writeCount() {
        return writeCount.get();
    }

    /**
     * GROUP/PLURAL of every stored CRD, read from the store again only after a CRD was written (the
     * training operator's CRDs are 3.7 MB: parsing them per request made every custom-resource call slow).
     */
    private java.util.Set<String> servedResources() {
        java.util.Set<String> served = servedResources;
        if (served != null) {
            return served;
        }
        served = new java.util.HashSet<>();
        var crds = dispatcher.handleGet(CRDS);
        if (crds.code() == 200) {
            for (var crd :
                    io.trainplane.core.Json.read(crds.getBody().readUtf8()).path("items")) {
                served.add(crd.path("spec").path("group").asText() + "/"
                        + crd.path("spec").path("names").path("plural").asText());
            }
        }
        servedResources = java.util.Set.copyOf(served);
        return servedResources;
    }

    /** Whether a stored CRD defines {@code plural} in {@code group}. */
    boolean serves(String group, String plural) {
        return servedResources().contains(group + "/" + plural);
    }

    /** Every object that carries a run label, as {@code Kind/namespace/name}. */
    public List<String> labeledObjects() {
        long writesBefore = writeCount.get();
        Labeled last = labeled;
        if (last != null && last.writeCount() == writesBefore) {
            return last.objects();
        }
        List<String> objects = listLabeledObjects();
        labeled = new Labeled(writesBefore, objects);
        return objects;
    }

    /** What {@link #labeledObjects} found and the write count it was read at (the inventory is taken after every step). */
    private record Labeled(long writeCount, List<String> objects) {}

    private List<String> listLabeledObjects() {
        String label = RunObjects.RUN_LABEL;
        return Stream.of(
                        admin.namespaces().withLabel(label).list().getItems(),
                        admin.batch()
                                .v1()
                                .jobs()
                                .inAnyNamespace()
                                .withLabel(label)
                                .list()
                                .getItems(),
                        !serves(PyTorchJobs.CONTEXT.getGroup(), PyTorchJobs.CONTEXT.getPlural())
                                ? List.<HasMetadata>of()
                                : admin.genericKubernetesResources(PyTorchJobs.CONTEXT)
                                        .inAnyNamespace()
                                        .withLabel(label)
                                        .list()
                                        .getItems(),
                        !serves(MpiJobs.CONTEXT.getGroup(), MpiJobs.CONTEXT.getPlural())
                                ? List.<HasMetadata>of()
                                : admin.genericKubernetesResources(MpiJobs.CONTEXT)
                                        .inAnyNamespace()
                                        .withLabel(label)
                                        .list()
                                        .getItems(),
                        admin.pods().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.services()
                                .inAnyNamespace()
                                .withLabel(label)
                                .list()
                                .getItems(),
                        admin.configMaps()
                                .inAnyNamespace()
                                .withLabel(label)
                                .list()
                                .getItems(),
                        admin.persistentVolumeClaims()
                                .inAnyNamespace()
                                .withLabel(label)
                                .list()
                                .getItems(),
                        admin.persistentVolumes().withLabel(label).list().getItems(),
                        admin.storage()
                                .v1()
                                .storageClasses()
                                .withLabel(label)
                                .list()
                                .getItems())
                .flatMap(List::stream)
                .map(SimulatedKubernetes::ref)
                .sorted()
                .toList();
    }

    static String ref(HasMetadata object) {
        return "kubernetes:" + RunObjects.ref(object);
    }

    /**
     * Stops the server. A server whose event loop is held up (a request still being answered, a
     * stalled machine) may not stop within the mock server's 10 seconds: it is then left to the JVM,
     * because freeing the twin's resources must never change the outcome of a run or a test.
     */
    @Override
    public void close() {
        String endpoint = endpoint();
        admin.close();
        try {
            server.destroy();
        } catch (IllegalStateException e) {
            Logger.getLogger(SimulatedKubernetes.class.getName())
                    .log(Level.WARNING, "simulated API server " + endpoint + " did not stop in time; left running", e);
        }
    }
}
