package io.trainplane.local.sim;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.trainplane.kubernetes.PyTorchJobs;
import io.trainplane.kubernetes.RunObjects;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * A Kubernetes API server for local mode: the fabric8 mock server in CRUD mode (objects are
 * stored, listed by label and deleted as on a real cluster) on a loopback port, which the
 * handlers reach over HTTP like any API server.
 */
public final class SimulatedKubernetes implements AutoCloseable {
    // The mock server logs every request at INFO; local runs show their own progress instead.
    private static final Logger MOCK_SERVER_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_SERVER_LOG.setLevel(Level.WARNING);
        // The mock server runs on Netty; without Unsafe it works the same and JDK 24+ prints no warnings.
        System.setProperty("io.netty.noUnsafe", "true");
    }

    private final KubernetesMockServer server;
    private final KubernetesClient admin;

    public SimulatedKubernetes() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(new ArrayList<>(List.of(KubeflowCrd.context()))), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        admin = server.createClient();
        // The Kubeflow training operator is "installed": its CRD exists, as StartTraining checks.
        admin.apiextensions().v1().customResourceDefinitions().resource(KubeflowCrd.definition()).create();
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

    /** Every object that carries a run label, as {@code Kind/namespace/name}. */
    public List<String> labeledObjects() {
        String label = RunObjects.RUN_LABEL;
        return Stream.of(
                        admin.namespaces().withLabel(label).list().getItems(),
                        admin.batch().v1().jobs().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.genericKubernetesResources(PyTorchJobs.CONTEXT).inAnyNamespace().withLabel(label).list().getItems(),
                        admin.pods().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.services().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.configMaps().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.persistentVolumeClaims().inAnyNamespace().withLabel(label).list().getItems(),
                        admin.persistentVolumes().withLabel(label).list().getItems(),
                        admin.storage().v1().storageClasses().withLabel(label).list().getItems())
                .flatMap(List::stream)
                .map(SimulatedKubernetes::ref)
                .sorted()
                .toList();
    }

    static String ref(HasMetadata object) {
        return "kubernetes:" + RunObjects.ref(object);
    }

    @Override
    public void close() {
        admin.close();
        server.destroy();
    }
}
